# SPDX-License-Identifier: GPL-2.0-only
#
# Kernel trees: a tree used in place (-DKERNEL_SRC=DIR), or Debian's
# linux-source-X.Y tarball extracted once into KERNEL_CACHE_DIR, keyed by
# the package version so a second configure costs nothing.

set(KERNEL_CACHE_DIR "${CMAKE_BINARY_DIR}/kernel-trees" CACHE PATH
    "where Debian linux-source tarballs are extracted (shared between builds)")
# What a build takes from a tree; a narrower set keeps xz extraction short.
set(KERNEL_TREE_DIRS mm include lib Makefile)

function(_kernel_tree_version dir out)
  file(STRINGS "${dir}/Makefile" head LIMIT_COUNT 8)
  set(v "")
  foreach(key VERSION PATCHLEVEL SUBLEVEL)
    string(REGEX MATCH "${key} = ([0-9]+)" m "${head}")
    list(APPEND v "${CMAKE_MATCH_1}")
  endforeach()
  list(JOIN v "." v)
  set(${out} "${v}" PARENT_SCOPE)
endfunction()

# kernel_tree(<var> <series> [SRC dir]): sets <var> to an extracted tree
# and <var>_VERSION to its Makefile version.
function(kernel_tree var series src)
  if(src)
    get_filename_component(src "${src}" ABSOLUTE)
    if(NOT EXISTS "${src}/Makefile" OR NOT IS_DIRECTORY "${src}/mm")
      message(FATAL_ERROR "kernel tree ${src}: not a kernel source tree (no Makefile or mm/)")
    endif()
    set(tree "${src}")
  else()
    set(pkg "linux-source-${series}")
    set(tarball "/usr/src/${pkg}.tar.xz")
    if(NOT EXISTS "${tarball}")
      message(FATAL_ERROR "kernel tree ${pkg}: ${tarball} is missing "
        "(apt-get install ${pkg}, or pass -DKERNEL_SRC=DIR / tools/tb --kernel DIR)")
    endif()
    execute_process(COMMAND dpkg-query -W -f=\${Version} ${pkg}
      OUTPUT_VARIABLE pkgver RESULT_VARIABLE rc ERROR_QUIET)
    if(NOT rc EQUAL 0 OR pkgver STREQUAL "")
      file(TIMESTAMP "${tarball}" pkgver "%Y%m%d%H%M%S")
    endif()
    string(REGEX REPLACE "[^A-Za-z0-9.+-]" "_" pkgver "${pkgver}")
    set(tree "${KERNEL_CACHE_DIR}/${pkg}_${pkgver}")
    if(NOT EXISTS "${tree}/.extracted")
      message(STATUS "Extracting ${tarball} (${KERNEL_TREE_DIRS}) into ${tree}")
      set(tmp "${tree}.tmp")
      file(REMOVE_RECURSE "${tmp}")
      file(MAKE_DIRECTORY "${tmp}")
      set(members "")
      foreach(d ${KERNEL_TREE_DIRS})
        list(APPEND members "${pkg}/${d}")
      endforeach()
      execute_process(COMMAND tar -xJf "${tarball}" -C "${tmp}" ${members}
        RESULT_VARIABLE rc)
      if(NOT rc EQUAL 0)
        message(FATAL_ERROR "kernel tree ${pkg}: extracting ${tarball} failed")
      endif()
      file(REMOVE_RECURSE "${tree}")
      file(RENAME "${tmp}/${pkg}" "${tree}")
      file(REMOVE_RECURSE "${tmp}")
      file(TOUCH "${tree}/.extracted")
    endif()
  endif()
  _kernel_tree_version("${tree}" version)
  set(${var} "${tree}" PARENT_SCOPE)
  set(${var}_VERSION "${version}" PARENT_SCOPE)
endfunction()

# kernel_require(<tree> <file> [SYMBOLS s...]): one-line failure naming the
# tree, the file and the missing symbol, so drift is obvious.
function(kernel_require tree file)
  cmake_parse_arguments(K "" "" "SYMBOLS" ${ARGN})
  if(NOT EXISTS "${tree}/${file}")
    message(FATAL_ERROR "kernel tree ${tree}: ${file}: file missing")
  endif()
  file(READ "${tree}/${file}" text)
  # a definition: the name at the start of a line or after its return
  # type, its parameter list, then the opening brace
  foreach(sym ${K_SYMBOLS})
    if(NOT text MATCHES "\n([A-Za-z_][^\n;=(]*[ \t*])?${sym}\\([^;{]*\\)[ \t\n]*{")
      message(FATAL_ERROR "kernel tree ${tree}: ${file}: symbol '${sym}' missing")
    endif()
  endforeach()
  # an edited file re-runs configure, to check its symbols again; not in
  # tools/tb mutate's build, whose mutants change lines, never definitions
  if(NOT TB_MUTATE_BUILD)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${tree}/${file}")
  endif()
endfunction()

# kernel_headers(<tree> <dest> h...): make the named real headers, and only
# those, visible to the build (copied into dest, refreshed on change).
function(kernel_headers tree dest)
  foreach(h ${ARGN})
    if(NOT EXISTS "${tree}/include/${h}")
      message(FATAL_ERROR "kernel tree ${tree}: include/${h}: file missing")
    endif()
    configure_file("${tree}/include/${h}" "${dest}/${h}" COPYONLY)
  endforeach()
endfunction()

# kernel_features(<tree>): the tree's features (tools/tb_features.py) as the
# `--features a,b` kextract needs for the manifests' `if FEATURE` lines.
function(kernel_features tree out)
  if(tree STREQUAL KTREE_BEFORE AND NOT tree STREQUAL KTREE)
    set(f "${TB_FEATURES_BEFORE}")
  else()
    set(f "${TB_FEATURES}")
  endif()
  list(JOIN f "," f)
  set(${out} "--features=${f}" PARENT_SCOPE)
endfunction()

# The CONFIG set, read from the shim's kconfig.h, as -D options for kextract.
function(kernel_config_defines out)
  file(STRINGS "${PROJECT_SOURCE_DIR}/kernel-shim/include/kshim/kconfig.h" lines
       REGEX "^#define CONFIG_")
  set(defs "")
  foreach(l ${lines})
    string(REGEX REPLACE "^#define (CONFIG_[A-Za-z0-9_]+) (.*)$" "\\1=\\2" d "${l}")
    list(APPEND defs "-D" "${d}")
  endforeach()
  set(${out} "${defs}" PARENT_SCOPE)
endfunction()

# kextract(<out> <tree> <file> MANIFEST m [TREE_LABEL l]): a build-time
# extraction; the build fails with kextract's one-line message on drift.
function(kextract out tree file)
  cmake_parse_arguments(K "" "MANIFEST;LABEL" "ARGS" ${ARGN})
  get_filename_component(outdir "${out}" DIRECTORY)
  file(MAKE_DIRECTORY "${outdir}")
  kernel_config_defines(defs)
  kernel_features("${tree}" feats)
  if(NOT K_LABEL)
    set(K_LABEL "${tree}")
  endif()
  set(margs "")
  if(K_MANIFEST)
    set(margs --manifest "${K_MANIFEST}")
  endif()
  add_custom_command(OUTPUT "${out}"
    COMMAND ${Python3_EXECUTABLE} "${PROJECT_SOURCE_DIR}/tools/kextract"
            "${tree}/${file}" --srcname "${tree}/${file}" --tree "${K_LABEL}"
            ${defs} ${feats} ${margs} ${K_ARGS} -o "${out}"
    DEPENDS "${tree}/${file}" "${PROJECT_SOURCE_DIR}/tools/kextract" ${K_MANIFEST}
            "${TB_FEATURES_FILE}"
            "${PROJECT_SOURCE_DIR}/kernel-shim/include/kshim/kconfig.h"
    COMMENT "kextract ${file}"
    VERBATIM)
endfunction()

# kextract_header(<tree> <file> <out> <manifest>): header pieces are
# extracted at configure time (they are few and fast), so every target sees
# them without ordering dependencies; drift fails the configure.
function(kextract_header tree file out manifest)
  kernel_config_defines(defs)
  kernel_features("${tree}" feats)
  if(NOT EXISTS "${tree}/${file}")
    message(FATAL_ERROR "kernel tree ${tree}: ${file}: file missing")
  endif()
  get_filename_component(outdir "${out}" DIRECTORY)
  file(MAKE_DIRECTORY "${outdir}")
  execute_process(
    COMMAND ${Python3_EXECUTABLE} "${PROJECT_SOURCE_DIR}/tools/kextract"
            "${tree}/${file}" --srcname "${tree}/${file}" --tree "${tree}"
            ${defs} ${feats} --no-includes --manifest "${manifest}" -o "${out}"
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(STRIP "${err}" err)
    message(FATAL_ERROR "${err}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    "${tree}/${file}" "${manifest}" "${PROJECT_SOURCE_DIR}/tools/kextract"
    "${PROJECT_SOURCE_DIR}/kernel-shim/include/kshim/kconfig.h")
endfunction()
