//===- InputScreening.cpp - reject text that crashes upstream parsers -----===//

#include "cudnn-mlir/Support/InputScreening.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

LogicalResult
mlir::cudnn_mlir::screenForUpstreamParserCrashes(const llvm::MemoryBuffer &buffer,
                                                 llvm::raw_ostream &os) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(buffer.getBuffer(),
                                       buffer.getBufferIdentifier(),
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  llvm::Regex denseIndexArray("array[ \t\r\n]*<[ \t\r\n]*index([^_a-zA-Z0-9]|$)");
  bool found = false;
  llvm::StringRef text = buffer.getBuffer();
  size_t offset = 0;
  llvm::SmallVector<llvm::StringRef, 2> match;
  while (offset < text.size() &&
         denseIndexArray.match(text.drop_front(offset), &match)) {
    size_t at = match[0].data() - text.data();
    offset = at + match[0].size();
    // A `//` earlier on the same line makes this a comment.
    size_t lineStart = text.rfind('\n', at);
    lineStart = lineStart == llvm::StringRef::npos ? 0 : lineStart + 1;
    if (text.slice(lineStart, at).contains("//"))
      continue;
    found = true;
    sourceMgr.PrintMessage(
        os, llvm::SMLoc::getFromPointer(text.data() + at),
        llvm::SourceMgr::DK_Error,
        "expects a dense array of integer or float elements (e.g. "
        "array<i64: ...>), but got array<index ...>, which MLIR 22's parser "
        "cannot read (it crashes on it)");
  }
  return failure(found);
}
