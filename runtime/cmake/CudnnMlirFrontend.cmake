# Finds NVIDIA's header-only cudnn-frontend at the version cudnn-mlir pins.
# The headers come from the PyPI wheel `nvidia-cudnn-frontend` (its include/
# folder); scripts/setup.sh fetches them into <build>/third_party.
#
# Input:  CUDNN_FRONTEND_INCLUDE_DIR (cache variable, or the environment
#         variable of the same name): the folder holding cudnn_frontend.h.
# Output: the imported target CudnnMlir::cudnn_frontend and the variable
#         CUDNN_FRONTEND_VERSION (e.g. 1.32.0).
include_guard(GLOBAL)
include(CudnnMlirVersionMacros)

set(CUDNN_MLIR_FRONTEND_PIN 1.32.0)
set(_fe_pip_cmd
  "python3 -m pip download --no-deps --only-binary=:all: --python-version 3.11 --platform manylinux_2_28_x86_64 -d <dir> nvidia-cudnn-frontend==${CUDNN_MLIR_FRONTEND_PIN}")

if(NOT CUDNN_FRONTEND_INCLUDE_DIR AND DEFINED ENV{CUDNN_FRONTEND_INCLUDE_DIR})
  set(CUDNN_FRONTEND_INCLUDE_DIR "$ENV{CUDNN_FRONTEND_INCLUDE_DIR}")
endif()
# Where scripts/setup.sh puts it, so a reconfigure of its build tree needs no
# flag.
if(NOT CUDNN_FRONTEND_INCLUDE_DIR)
  set(_fe_default
    "${CMAKE_BINARY_DIR}/third_party/cudnn-frontend-${CUDNN_MLIR_FRONTEND_PIN}/include")
  if(EXISTS "${_fe_default}/cudnn_frontend.h")
    set(CUDNN_FRONTEND_INCLUDE_DIR "${_fe_default}")
  endif()
endif()
set(CUDNN_FRONTEND_INCLUDE_DIR "${CUDNN_FRONTEND_INCLUDE_DIR}" CACHE PATH
  "Folder with cudnn_frontend.h (include/ of the nvidia-cudnn-frontend wheel)")

if(NOT EXISTS "${CUDNN_FRONTEND_INCLUDE_DIR}/cudnn_frontend.h"
   OR NOT EXISTS "${CUDNN_FRONTEND_INCLUDE_DIR}/cudnn_frontend_version.h")
  message(FATAL_ERROR
    "cudnn-mlir's runtime expects the cudnn-frontend ${CUDNN_MLIR_FRONTEND_PIN} "
    "headers (cudnn_frontend.h, cudnn_frontend_version.h), but got none in "
    "CUDNN_FRONTEND_INCLUDE_DIR='${CUDNN_FRONTEND_INCLUDE_DIR}'. Run "
    "scripts/setup.sh, or fetch the wheel with\n  ${_fe_pip_cmd}\nunzip its "
    "include/ folder and pass -DCUDNN_FRONTEND_INCLUDE_DIR=<that folder> (or "
    "set the environment variable of the same name).")
endif()

cudnn_mlir_read_version("${CUDNN_FRONTEND_INCLUDE_DIR}/cudnn_frontend_version.h"
  "CUDNN_FRONTEND_@_VERSION" CUDNN_FRONTEND_VERSION)
if(NOT CUDNN_FRONTEND_VERSION VERSION_EQUAL CUDNN_MLIR_FRONTEND_PIN)
  message(FATAL_ERROR
    "cudnn-mlir's runtime expects cudnn-frontend ${CUDNN_MLIR_FRONTEND_PIN}, "
    "but ${CUDNN_FRONTEND_INCLUDE_DIR}/cudnn_frontend_version.h says "
    "'${CUDNN_FRONTEND_VERSION}'. Fetch the pinned wheel with\n  ${_fe_pip_cmd}")
endif()
message(STATUS "Found cudnn-frontend ${CUDNN_FRONTEND_VERSION}: ${CUDNN_FRONTEND_INCLUDE_DIR}")

# The pin as cudnn_frontend_version.h encodes it (1.32.0 -> 13200), so the
# code can static_assert that what it compiled against is what we pinned.
string(REPLACE "." ";" _fe_pin_parts "${CUDNN_MLIR_FRONTEND_PIN}")
list(GET _fe_pin_parts 0 _fe_pin_major)
list(GET _fe_pin_parts 1 _fe_pin_minor)
list(GET _fe_pin_parts 2 _fe_pin_patch)
math(EXPR _fe_pin_number
  "${_fe_pin_major} * 10000 + ${_fe_pin_minor} * 100 + ${_fe_pin_patch}")

if(NOT TARGET CudnnMlir::cudnn_frontend)
  add_library(CudnnMlir::cudnn_frontend INTERFACE IMPORTED)
  # SYSTEM: the frontend's own warnings are not ours to fix.
  set_target_properties(CudnnMlir::cudnn_frontend PROPERTIES
    INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${CUDNN_FRONTEND_INCLUDE_DIR}"
    INTERFACE_INCLUDE_DIRECTORIES "${CUDNN_FRONTEND_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES CudnnMlir::cudnn
    INTERFACE_COMPILE_DEFINITIONS
      "CMRT_FRONTEND_PIN_VERSION=${_fe_pin_number}")
endif()
