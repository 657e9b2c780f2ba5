# SPDX-License-Identifier: GPL-2.0-only
#
# The trees' features and the suites they support, from the table of
# tools/tb_features.py: TB_FEATURES (KTREE), TB_FEATURES_BEFORE
# (KTREE_BEFORE), TB_HAVE_<feature> 0/1 and TB_SUITE_SKIP_<suite> (empty,
# or why the tree cannot run the suite). tools/tb reads the same
# results from tb-features.cmake.json.
set(TB_FEATURES_FILE "${CMAKE_BINARY_DIR}/tb-features.cmake")
# Variants (mm/variants/, tools/tb_features.py's VARIANTS) are built where
# the tree has what they hook (feature variant_<name>), except those named
# here: `tools/tb compare` leaves a variant out of the after side when the
# patch changes what the variant replaces.
set(TB_VARIANTS_OFF "" CACHE STRING "variants left out of this build (names, ; or , separated)")
execute_process(
  COMMAND ${Python3_EXECUTABLE} "${PROJECT_SOURCE_DIR}/tools/tb_features.py"
          cmake "${KTREE}" "${TB_FEATURES_FILE}" --before "${KTREE_BEFORE}"
          --variants-off "${TB_VARIANTS_OFF},"
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tools/tb_features.py on ${KTREE} failed: ${err}")
endif()
include("${TB_FEATURES_FILE}")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  "${PROJECT_SOURCE_DIR}/tools/tb_features.py")
message(STATUS "Kernel tree features: ${TB_FEATURES}")
# The memcg world (kmemcg) and the reclaim world (kworld, kreclaim) link
# each other: both are built when the tree supports the memcg suites.
if(TB_SUITE_SKIP_memcg STREQUAL "")
  set(TB_BUILD_MEMCG ON)
else()
  set(TB_BUILD_MEMCG OFF)
endif()

# tb_feature_defines(<target>): TB_HAVE_<feature>=0/1 for C code, so an
# assertion that differs between versions names the feature it depends on.
function(tb_feature_defines target)
  get_cmake_property(vars VARIABLES)
  foreach(v ${vars})
    if(v MATCHES "^TB_HAVE_(.*)$")
      target_compile_definitions(${target} INTERFACE "TB_HAVE_${CMAKE_MATCH_1}=${${v}}")
    endif()
  endforeach()
endfunction()

# tb_suite(<suite>): in a tests/ CMakeLists.txt, before its tests: when
# the tree cannot run the suite, say why and return from the directory.
macro(tb_suite suite)
  if(NOT DEFINED TB_SUITE_SKIP_${suite})
    message(FATAL_ERROR "suite '${suite}' is not in tools/tb_features.py's SUITES")
  endif()
  if(NOT TB_SUITE_SKIP_${suite} STREQUAL "")
    message(STATUS "Suite ${suite} skipped: ${TB_SUITE_SKIP_${suite}}")
    return()
  endif()
endmacro()
