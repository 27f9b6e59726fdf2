# cudnn_mlir_read_version(<header> <pattern> <out_var>): reads the three
# `#define <MAJOR/MINOR/PATCH macro> <n>` lines of a version header and sets
# <out_var> to "major.minor.patch". <pattern> is the macro name with `@` where
# the part goes (CUDNN_@ for CUDNN_MAJOR, CUDNN_FRONTEND_@_VERSION, ...); the
# parts are MAJOR, MINOR and PATCH, except that a header may spell the last
# one PATCHLEVEL (cuDNN does).
include_guard(GLOBAL)

function(cudnn_mlir_read_version header pattern out_var)
  file(STRINGS "${header}" _lines REGEX "#define +[A-Z_]+ +[0-9]+")
  set(_parts)
  foreach(_part MAJOR MINOR PATCH)
    set(_value "")
    foreach(_spelling ${_part} ${_part}LEVEL)
      string(REPLACE "@" "${_spelling}" _macro "${pattern}")
      if(_value STREQUAL "" AND "${_lines}" MATCHES "#define +${_macro} +([0-9]+)")
        set(_value "${CMAKE_MATCH_1}")
      endif()
    endforeach()
    list(APPEND _parts "${_value}")
  endforeach()
  list(JOIN _parts "." _version)
  set(${out_var} "${_version}" PARENT_SCOPE)
endfunction()
