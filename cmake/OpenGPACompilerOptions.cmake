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
