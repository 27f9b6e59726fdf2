// The fuzz test's own folder is not read, but for corpus/.
func.func @skipped() {
  return
}
