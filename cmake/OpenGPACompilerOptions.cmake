# Warnings and sanitizers shared by every OpenGPA target.

# A local that hides another local: GCC spells it -Wshadow=local, Clang -Wshadow-uncaptured-local (Clang rejects
# GCC's spelling, which under -Werror failed every file).
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  set(OPENGPA_SHADOW_WARNING -Wshadow-uncaptured-local)
else()
  set(OPENGPA_SHADOW_WARNING -Wshadow=local)
endif()
set(OPENGPA_WARNING_FLAGS -Wall -Wextra -Wpedantic ${OPENGPA_SHADOW_WARNING} -Wnon-virtual-dtor)
if(OPENGPA_WERROR)
  list(APPEND OPENGPA_WARNING_FLAGS -Werror)
endif()

if(OPENGPA_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

# Applies OpenGPA's warnings to a target's own sources (third-party headers come in as SYSTEM).
function(opengpa_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:${OPENGPA_WARNING_FLAGS}>
    $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wpedantic $<$<BOOL:${OPENGPA_WERROR}>:-Werror>>)
endfunction()

# Every shared library here runs inside someone else's process (GPA libraries, layers, gpaprof's agent, preload
# and injection). A toolchain that links libstdc++ statically (the GPU machine's /opt/gcc g++ does) puts a copy of
# the runtime into each of them, and exported it: gpaprof's preloaded OpenCL shim, first in the process's symbol
# search order, then stood in for libstdc++ in the libraries loaded after it. PoCL 5.0 died of SIGSEGV inside
# libstdc++ in its first clBuildProgram; PoCL 3.1's compiler no longer found its headers (docs/gpaprof.md, "A C++
# runtime linked into the shim"). The runtime archives' symbols stay inside each library (tests/cmake).
# The same runtime's template instantiations (std::call_once's lambda, std::regex's executor), which the headers
# put into each library with default visibility, stay inside it too (cmake/std_symbols_local.map). A library with
# an export list of its own (OPENGPA_EXPORT_MAP: the GPA libraries) exports nothing else already.
# Those libraries also stay loaded once loaded (-z nodelete), as they did while they exported such instantiations:
# some were unique symbols (STB_GNU_UNIQUE), which keep a library from being unloaded, and others tied it to the
# libraries that used them. Layers are unloaded by their loaders when an instance ends; a driver or a thread may
# still call into them later (the Vulkan fixture layer's state is never destroyed for that reason), and under
# LeakSanitizer an unloaded library's never-freed state reads as a leak. The GPA libraries, which applications
# dlopen and dlclose, unload as before.
if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
  set(opengpa_shared_library "$<OR:$<STREQUAL:$<TARGET_PROPERTY:TYPE>,SHARED_LIBRARY>,$<STREQUAL:$<TARGET_PROPERTY:TYPE>,MODULE_LIBRARY>>")
  add_link_options("$<${opengpa_shared_library}:LINKER:--exclude-libs,libstdc++.a:libsupc++.a:libgcc.a:libgcc_eh.a>")
  set(opengpa_without_export_map "$<AND:${opengpa_shared_library},$<NOT:$<BOOL:$<TARGET_PROPERTY:OPENGPA_EXPORT_MAP>>>>")
  add_link_options("$<${opengpa_without_export_map}:LINKER:--version-script=${CMAKE_CURRENT_LIST_DIR}/std_symbols_local.map>")
  add_link_options("$<${opengpa_without_export_map}:LINKER:SHELL:-z nodelete>")
endif()
