# Finds optional dependencies. Every part of OpenGPA whose dependencies are present is built; the
# summary at the end of configuration says what was skipped and why.

# Recorded as global properties so that any subdirectory can add to the summary.
function(opengpa_built what)
  set_property(GLOBAL APPEND PROPERTY OPENGPA_BUILT "${what}")
endfunction()
function(opengpa_skipped what why)
  set_property(GLOBAL APPEND PROPERTY OPENGPA_SKIPPED "${what}: ${why}")
endfunction()

find_package(Threads REQUIRED)

# OpenCL: the ICD loader and headers (Debian: ocl-icd-opencl-dev opencl-headers).
find_package(OpenCL 1.2 QUIET)
set(OPENGPA_HAVE_OPENCL ${OpenCL_FOUND})

# Vulkan: headers and loader (Debian: libvulkan-dev); lavapipe (mesa-vulkan-drivers) runs the tests on the CPU.
find_package(Vulkan QUIET)
set(OPENGPA_HAVE_VULKAN ${Vulkan_FOUND})

# OpenGL/GLES over EGL: glvnd's libEGL and libOpenGL with their headers (Debian: libegl-dev libopengl-dev
# libgles-dev); Mesa's llvmpipe (libegl-mesa0, libgl1-mesa-dri) runs the tests on the CPU, surfaceless.
find_package(OpenGL QUIET COMPONENTS OpenGL EGL)
set(OPENGPA_HAVE_GL OFF)
if(OpenGL_OpenGL_FOUND AND OpenGL_EGL_FOUND AND EXISTS "${OPENGL_INCLUDE_DIR}/GL/glcorearb.h")
  set(OPENGPA_HAVE_GL ON)
endif()

# CUDA toolkit with CUPTI (headers and libcupti; the GPU itself is only needed at run time).
find_package(CUDAToolkit QUIET)
set(OPENGPA_HAVE_CUPTI OFF)
if(CUDAToolkit_FOUND)
  find_path(OPENGPA_CUPTI_INCLUDE_DIR cupti_profiler_host.h
    HINTS ${CUDAToolkit_INCLUDE_DIRS} ${CUDAToolkit_TARGET_DIR}/extras/CUPTI/include)
  find_library(OPENGPA_CUPTI_LIBRARY cupti
    HINTS ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_TARGET_DIR}/extras/CUPTI/lib64 ${CUDAToolkit_TARGET_DIR}/lib)
  if(OPENGPA_CUPTI_INCLUDE_DIR AND OPENGPA_CUPTI_LIBRARY)
    set(OPENGPA_HAVE_CUPTI ON)
  endif()
endif()
include(CheckLanguage)
check_language(CUDA)
set(OPENGPA_HAVE_NVCC OFF)
if(CMAKE_CUDA_COMPILER)
  set(OPENGPA_HAVE_NVCC ON)
endif()

# GoogleTest: installed package, or Debian's source package. Without it the tests are left out (the summary says
# so) and everything else is built, as tools/main.sh needs; OPENGPA_REQUIRE_TESTS=ON (tools/test.sh) makes it an error.
option(OPENGPA_REQUIRE_TESTS "Fail the configuration when the tests cannot be built (GoogleTest missing)" OFF)
set(OPENGPA_GTEST_SOURCE_DIR /usr/src/googletest CACHE PATH "GoogleTest's sources (Debian's libgtest-dev), used when no GTest package is found")
if(OPENGPA_BUILD_TESTS)
  find_package(GTest QUIET)
  if(NOT GTest_FOUND AND EXISTS ${OPENGPA_GTEST_SOURCE_DIR}/CMakeLists.txt)
    set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
    add_subdirectory(${OPENGPA_GTEST_SOURCE_DIR} ${CMAKE_BINARY_DIR}/googletest EXCLUDE_FROM_ALL SYSTEM)
    add_library(GTest::gtest ALIAS gtest)
    add_library(GTest::gtest_main ALIAS gtest_main)
    set(GTest_FOUND ON)
  endif()
  if(NOT GTest_FOUND)
    if(OPENGPA_REQUIRE_TESTS)
      message(FATAL_ERROR "GoogleTest not found: the tests cannot be built (apt-get install libgtest-dev, or set "
                          "GTest_DIR or OPENGPA_GTEST_SOURCE_DIR)")
    endif()
    # A normal variable over the option: the next configuration looks again.
    set(OPENGPA_BUILD_TESTS OFF)
    opengpa_skipped("the tests (ctest)" "GoogleTest not found (apt-get install libgtest-dev)")
  endif()
endif()

function(opengpa_print_summary)
  message(STATUS "")
  message(STATUS "OpenGPA ${PROJECT_VERSION} configuration")
  get_property(built GLOBAL PROPERTY OPENGPA_BUILT)
  get_property(skipped GLOBAL PROPERTY OPENGPA_SKIPPED)
  foreach(item IN LISTS built)
    message(STATUS "  building: ${item}")
  endforeach()
  foreach(item IN LISTS skipped)
    message(STATUS "  SKIPPED:  ${item}")
  endforeach()
  message(STATUS "")
endfunction()
