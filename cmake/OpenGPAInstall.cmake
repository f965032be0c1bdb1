# Install rules and the package files that let other projects find OpenGPA (docs/install.md).
#
# Everything goes to GNUInstallDirs places, given relative to the prefix, so that an installation can be
# moved and `cmake --install build --prefix P` may choose P at install time: the CMake package, the
# pkg-config files, the Vulkan layer's manifest and gpaprof all find their files relative to themselves.
#
#   opengpa_install_gpa_library(target)   a libGPUPerfAPI<API>.so: SONAME version, exported as OpenGPA::<API>
#   opengpa_install_tool(target)          an executable in bin/ that finds OpenGPA's libraries in ../lib
#   opengpa_install_runtime_library(target)  a library loaded at run time (gpaprof's parts, layers)
#   opengpa_install_package()             headers, CMake package, pkg-config files, docs, samples (call last)
#
# Install components: runtime (libraries, tools, layers), development (headers, the .so links, the package
# files), documentation (docs and the samples' sources).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The path of install directory `to` relative to install directory `from` (GNUInstallDirs values). When `to`
# is absolute, it is returned as it is: such an installation cannot move.
function(opengpa_relative_install_path out from to)
  if(IS_ABSOLUTE "${to}")
    set(${out} "${to}" PARENT_SCOPE)
    return()
  endif()
  if(IS_ABSOLUTE "${from}")
    set(${out} "${CMAKE_INSTALL_PREFIX}/${to}" PARENT_SCOPE)
    return()
  endif()
  foreach(dir from to)
    set(${dir}_full "/opengpa-prefix/${${dir}}")
  endforeach()
  file(RELATIVE_PATH relative "${from_full}" "${to_full}")
  if(relative STREQUAL "")
    set(relative ".")
  endif()
  set(${out} "${relative}" PARENT_SCOPE)
endfunction()

# gpaprof and the tools find OpenGPA's libraries through this path relative to their own directory
# (../lib, or ../lib/x86_64-linux-gnu when the prefix is /usr on Debian).
opengpa_relative_install_path(OPENGPA_BINDIR_TO_LIBDIR "${CMAKE_INSTALL_BINDIR}" "${CMAKE_INSTALL_LIBDIR}")

# Before 1.0 each minor version may change the OGPA_ extensions, so the SONAME carries major.minor.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(OPENGPA_SOVERSION "0.${PROJECT_VERSION_MINOR}")
  set(OPENGPA_PACKAGE_COMPATIBILITY SameMinorVersion)
else()
  set(OPENGPA_SOVERSION "${PROJECT_VERSION_MAJOR}")
  set(OPENGPA_PACKAGE_COMPATIBILITY SameMajorVersion)
endif()

# The public headers as a target: OpenGPA::headers (for programs that dlopen a GPA library themselves).
add_library(opengpa_headers INTERFACE)
target_include_directories(opengpa_headers INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/opengpa>)
set_target_properties(opengpa_headers PROPERTIES EXPORT_NAME headers)
add_library(OpenGPA::headers ALIAS opengpa_headers)
install(TARGETS opengpa_headers EXPORT OpenGPATargets)

# What tools/main.sh builds: the GPA libraries, the tools (gpaprof with its parts), the sample it profiles.
add_custom_target(opengpa_main_job)

function(opengpa_install_gpa_library target)
  if(NOT target MATCHES "^GPUPerfAPI(.+)$")
    message(FATAL_ERROR "opengpa_install_gpa_library(${target}): GPA libraries are named GPUPerfAPI<API>")
  endif()
  set(api "${CMAKE_MATCH_1}")
  set_target_properties(${target} PROPERTIES
    VERSION ${PROJECT_VERSION}
    SOVERSION ${OPENGPA_SOVERSION}
    EXPORT_NAME ${api})
  target_link_libraries(${target} INTERFACE opengpa_headers)
  add_library(OpenGPA::${api} ALIAS ${target})
  install(TARGETS ${target} EXPORT OpenGPATargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT development)
  set_property(GLOBAL APPEND PROPERTY OPENGPA_INSTALLED_APIS ${api})
  add_dependencies(opengpa_main_job ${target})
endfunction()

function(opengpa_install_tool target)
  set(libdir "$ORIGIN/${OPENGPA_BINDIR_TO_LIBDIR}")
  if(IS_ABSOLUTE "${OPENGPA_BINDIR_TO_LIBDIR}")
    set(libdir "${OPENGPA_BINDIR_TO_LIBDIR}")
  endif()
  set_target_properties(${target} PROPERTIES INSTALL_RPATH "${libdir}")
  install(TARGETS ${target} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
  add_dependencies(opengpa_main_job ${target})  # the tools the README names are there after tools/main.sh
endfunction()

function(opengpa_install_runtime_library target)
  install(TARGETS ${target} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime)
endfunction()

function(opengpa_install_package)
  set(package_dir ${CMAKE_INSTALL_LIBDIR}/cmake/OpenGPA)
  set(generated ${PROJECT_BINARY_DIR}/opengpa-package)
  get_property(apis GLOBAL PROPERTY OPENGPA_INSTALLED_APIS)

  # Headers under include/opengpa/, so that GPUPerfAPI.h and friends do not collide with other copies.
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/opengpa
          COMPONENT development)

  # CMake package: find_package(OpenGPA CONFIG REQUIRED [COMPONENTS CL CUDA VK GL]).
  install(EXPORT OpenGPATargets NAMESPACE OpenGPA:: DESTINATION ${package_dir} COMPONENT development)
  set(OPENGPA_INSTALLED_APIS "${apis}")
  set(OPENGPA_GPAPROF_PATH ${CMAKE_INSTALL_BINDIR}/gpaprof)
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/OpenGPAConfig.cmake.in
    ${generated}/OpenGPAConfig.cmake INSTALL_DESTINATION ${package_dir} PATH_VARS OPENGPA_GPAPROF_PATH)
  write_basic_package_version_file(${generated}/OpenGPAConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY ${OPENGPA_PACKAGE_COMPATIBILITY})
  install(FILES ${generated}/OpenGPAConfig.cmake ${generated}/OpenGPAConfigVersion.cmake
          DESTINATION ${package_dir} COMPONENT development)

  # pkg-config: opengpa (headers) and opengpa-<api> per library; the prefix is found from the file's place.
  set(pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
    set(OPENGPA_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  else()
    opengpa_relative_install_path(to_prefix "${pc_dir}" ".")
    set(OPENGPA_PC_PREFIX "\${pcfiledir}/${to_prefix}")
  endif()
  foreach(dir LIBDIR INCLUDEDIR)
    if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
      set(OPENGPA_PC_${dir} "${CMAKE_INSTALL_${dir}}")
    else()
      set(OPENGPA_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
    endif()
  endforeach()
  set(pc_files ${generated}/opengpa.pc)
  set(OPENGPA_PC_NAME opengpa)
  set(OPENGPA_PC_DESCRIPTION "${PROJECT_DESCRIPTION}: headers (GPUPerfAPI.h, gpa/gpa.hpp)")
  set(OPENGPA_PC_REQUIRES "")
  set(OPENGPA_PC_LIBS "")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/opengpa.pc.in ${generated}/opengpa.pc @ONLY)
  foreach(api IN LISTS apis)
    string(TOLOWER "${api}" name)
    set(OPENGPA_PC_NAME opengpa-${name})
    set(OPENGPA_PC_DESCRIPTION "${PROJECT_DESCRIPTION}: libGPUPerfAPI${api}.so")
    set(OPENGPA_PC_REQUIRES "opengpa = ${PROJECT_VERSION}")
    set(OPENGPA_PC_LIBS "-L\${libdir} -lGPUPerfAPI${api}")
    configure_file(${PROJECT_SOURCE_DIR}/cmake/opengpa.pc.in ${generated}/opengpa-${name}.pc @ONLY)
    list(APPEND pc_files ${generated}/opengpa-${name}.pc)
  endforeach()
  install(FILES ${pc_files} DESTINATION ${pc_dir} COMPONENT development)

  # Documentation and the samples' sources (their CMakeLists.txt belong to this build, not to users').
  file(GLOB pages ${PROJECT_SOURCE_DIR}/docs/*.md)
  install(FILES ${PROJECT_SOURCE_DIR}/README.md ${pages} DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT documentation)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/samples/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/samples
          COMPONENT documentation PATTERN CMakeLists.txt EXCLUDE PATTERN *.cmake EXCLUDE)
  string(REPLACE ";" ", " components "${apis}")
  opengpa_built("install rules: CMake package OpenGPA (components ${components}), pkg-config files (docs/install.md)")
endfunction()
