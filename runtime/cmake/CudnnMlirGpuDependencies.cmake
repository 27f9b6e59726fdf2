# Finds the CUDA toolkit and cuDNN 9 for cudnn-mlir, with a configure error
# that names exactly what is missing. Used by the top-level project and by the
# runtime when it is configured on its own (cmake -S runtime).
#
# Defines the imported target CudnnMlir::cudnn and the variables
# CUDNN_VERSION (e.g. 9.19.0) and CUDNN_INCLUDE_DIR.
include_guard(GLOBAL)
include(CudnnMlirVersionMacros)

if(NOT CUDAToolkit_ROOT AND EXISTS /usr/local/cuda)
  set(CUDAToolkit_ROOT /usr/local/cuda)
endif()
find_package(CUDAToolkit 12)
if(NOT CUDAToolkit_FOUND)
  message(FATAL_ERROR
    "cudnn-mlir needs the CUDA toolkit (CUDA 12 or 13: headers, cudart and the "
    "driver API stub), but CMake's FindCUDAToolkit found none. Install it under "
    "/usr/local/cuda or set CUDAToolkit_ROOT.")
endif()

set(_cudnn_hints
  ${CUDNN_ROOT} $ENV{CUDNN_ROOT} ${CUDAToolkit_LIBRARY_ROOT}
  ${CUDAToolkit_TARGET_DIR} /usr/local/cuda /usr)
find_path(CUDNN_INCLUDE_DIR cudnn_version.h
  HINTS ${_cudnn_hints} ${CUDAToolkit_INCLUDE_DIRS}
  PATH_SUFFIXES include include/x86_64-linux-gnu)
find_library(CUDNN_LIBRARY NAMES cudnn libcudnn.so.9
  HINTS ${_cudnn_hints} ${CUDAToolkit_LIBRARY_DIR}
  PATH_SUFFIXES lib64 lib lib/x86_64-linux-gnu)

if(NOT CUDNN_INCLUDE_DIR)
  message(FATAL_ERROR
    "cudnn-mlir needs cuDNN 9, but cudnn_version.h was not found under "
    "${CUDAToolkit_TARGET_DIR}/include or /usr/include. Install cuDNN 9 into "
    "the CUDA root or set CUDNN_ROOT.")
endif()
if(NOT CUDNN_LIBRARY)
  message(FATAL_ERROR
    "cudnn-mlir needs cuDNN 9, but libcudnn.so was not found under "
    "${CUDAToolkit_LIBRARY_DIR} or the system library directories "
    "(headers were found in ${CUDNN_INCLUDE_DIR}). Install cuDNN 9's libraries "
    "or set CUDNN_ROOT.")
endif()

cudnn_mlir_read_version("${CUDNN_INCLUDE_DIR}/cudnn_version.h" "CUDNN_@"
  CUDNN_VERSION)
if(NOT CUDNN_VERSION MATCHES "^9\\.")
  message(FATAL_ERROR
    "cudnn-mlir needs cuDNN 9, but ${CUDNN_INCLUDE_DIR}/cudnn_version.h says "
    "${CUDNN_VERSION}.")
endif()
message(STATUS "Found cuDNN ${CUDNN_VERSION}: ${CUDNN_LIBRARY}")

if(NOT TARGET CudnnMlir::cudnn)
  add_library(CudnnMlir::cudnn UNKNOWN IMPORTED)
  set_target_properties(CudnnMlir::cudnn PROPERTIES
    IMPORTED_LOCATION "${CUDNN_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${CUDNN_INCLUDE_DIR}")
endif()
