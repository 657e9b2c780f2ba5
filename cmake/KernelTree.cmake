# SPDX-License-Identifier: GPL-2.0-only
#
# Kernel trees: a tree used in place (-DKERNEL_SRC=DIR), or Debian's
# linux-source-X.Y tarball extracted once into KERNEL_CACHE_DIR, keyed by
# the package version so a second configure costs nothing.

set(KERNEL_CACHE_DIR "${CMAKE_BINARY_DIR}/kernel-trees" CACHE PATH
    "where Debian linux-source tarballs are extracted (shared between builds)")
# What a build takes from a tree; a narrower set keeps xz extraction short.
# fs/ext4/inode.c: tools/tb_features.py's probe of ext4's large folios (the
# oracle guest's file system). A cached tree that lacks one of these (made
# before it was added) is extracted again.
set(KERNEL_TREE_DIRS mm include lib Makefile fs/ext4/inode.c)

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
    set(complete TRUE)
    foreach(d ${KERNEL_TREE_DIRS})
      if(NOT EXISTS "${tree}/${d}")
        set(complete FALSE)
      endif()
    endforeach()
    if(NOT EXISTS "${tree}/.extracted" OR NOT complete)
      message(STATUS "Extracting ${tarball} (${KERNEL_TREE_DIRS}) into ${tree}")
      set(tmp "${tree}.tmp")
      file(REMOVE_RECURSE "${tmp}")
      file(MAKE_DIRECTORY "${tmp}")
      set(members "")
      foreach(d ${KERNEL_TREE_DIRS})
        list(APPEND members "${pkg}/${d}")
      endforeach()
      # xz -T0: Debian's tarball is in blocks (62 for 6.12), which xz 5.4
      # decompresses on every core: 9 s of one core, not 9 s of wall
      execute_process(COMMAND tar -I "xz -T0" -xf "${tarball}" -C "${tmp}" ${members}
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

# kernel_require(<tree> <file> [SYMBOLS s...]): the file must exist
# (checked at configure time); its symbols are checked at build time, by a
# step that depends on the file alone, so an edited kernel .c re-runs that
# check, never configure. A missing one fails the build with one line naming
# the tree, the file and the symbol, so drift is obvious.
function(kernel_require tree file)
  cmake_parse_arguments(K "" "" "SYMBOLS" ${ARGN})
  if(NOT EXISTS "${tree}/${file}")
    message(FATAL_ERROR "kernel tree ${tree}: ${file}: file missing")
  endif()
  if(NOT K_SYMBOLS)
    return()
  endif()
  string(MD5 id "${tree}/${file};${K_SYMBOLS}")
  string(SUBSTRING "${id}" 0 12 id)
  if(TARGET kcheck_${id})
    return()
  endif()
  set(stamp "${CMAKE_BINARY_DIR}/kernel-gen/require/${id}.stamp")
  add_custom_command(OUTPUT "${stamp}"
    COMMAND ${Python3_EXECUTABLE} "${PROJECT_SOURCE_DIR}/cmake/kernel_require.py"
            "${tree}" "${file}" "${stamp}" ${K_SYMBOLS}
    DEPENDS "${tree}/${file}" "${PROJECT_SOURCE_DIR}/cmake/kernel_require.py"
    COMMENT "kernel_require ${file}"
    VERBATIM)
  # in every build, beside the compiles rather than before them: an edited
  # file's check does not delay its compile
  add_custom_target(kcheck_${id} ALL DEPENDS "${stamp}")
  set_property(GLOBAL APPEND PROPERTY TB_KERNEL_CHECKS kcheck_${id})
endfunction()

# kernel_checks: every kernel_require() check, for a build of chosen
# targets (tools/tb test --file builds it beside the suites' executables).
function(kernel_checks_target)
  get_property(checks GLOBAL PROPERTY TB_KERNEL_CHECKS)
  add_custom_target(kernel_checks)
  if(checks)
    add_dependencies(kernel_checks ${checks})
  endif()
endfunction()

# _kgen_step(<name> <output>...): a build step every translation unit of the
# kernel environment waits for (kenv's dependencies are followed by all that
# link it), without rebuilding when the step re-runs and changes nothing.
function(_kgen_step name)
  if(NOT TARGET ${name})
    add_custom_target(${name} DEPENDS ${ARGN})
    add_dependencies(kenv ${name})
  endif()
endfunction()

# kernel_headers(<tree> <dest> h...): make the named real headers, and only
# those, visible to the build: copied into dest at build time when they
# differ (an edited header re-copies itself, not configure).
function(kernel_headers tree dest)
  set(outs "")
  foreach(h ${ARGN})
    if(NOT EXISTS "${tree}/include/${h}")
      message(FATAL_ERROR "kernel tree ${tree}: include/${h}: file missing")
    endif()
    add_custom_command(OUTPUT "${dest}/${h}"
      COMMAND ${CMAKE_COMMAND} -E copy_if_different "${tree}/include/${h}" "${dest}/${h}"
      DEPENDS "${tree}/include/${h}"
      VERBATIM)
    list(APPEND outs "${dest}/${h}")
  endforeach()
  string(MD5 id "${tree};${dest};${ARGN}")
  string(SUBSTRING "${id}" 0 12 id)
  _kgen_step(kheaders_${id} ${outs})
endfunction()

# kernel_headers_present(<tree> <dest> h...): kernel_headers() of those of
# the named headers the tree has (linux/args.h is 6.7's; a header a tree
# lacks is one its code cannot include either)
function(kernel_headers_present tree dest)
  set(have "")
  foreach(h ${ARGN})
    if(EXISTS "${tree}/include/${h}")
      list(APPEND have ${h})
    endif()
  endforeach()
  if(have)
    kernel_headers("${tree}" "${dest}" ${have})
  endif()
endfunction()

# kernel_header_renamed(<tree> <dest> <a> <b>): a header the tree has under
# one of two names (linux/pagevec.h became linux/folio_batch.h in 7.0):
# the one it has is copied as kernel_headers() does, the other name is a
# generated header that includes it, so code of either age finds it.
function(kernel_header_renamed tree dest a b)
  if(EXISTS "${tree}/include/${a}")
    set(have ${a})
    set(alias ${b})
  elseif(EXISTS "${tree}/include/${b}")
    set(have ${b})
    set(alias ${a})
  else()
    message(FATAL_ERROR "kernel tree ${tree}: include/${a}: file missing (nor include/${b})")
  endif()
  kernel_headers("${tree}" "${dest}" ${have})
  kgen_write("${dest}/${alias}" "/* generated: ${alias} is ${have} in this tree */\n"
    "#include <${have}>\n")
endfunction()

# kgen_write(<path> <content>...): a generated file, written only when its
# content changes (a re-run of configure recompiles nothing by itself).
function(kgen_write path)
  string(CONCAT text ${ARGN})
  file(WRITE "${path}.tmp" "${text}")
  file(COPY_FILE "${path}.tmp" "${path}" ONLY_IF_DIFFERENT)
  file(REMOVE "${path}.tmp")
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
  set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    "${PROJECT_SOURCE_DIR}/kernel-shim/include/kshim/kconfig.h")
  # a CONFIG inside `#if [!]TB_HAVE_<feature>` ... `#endif` counts only
  # where the tree's feature says so (the C preprocessor sees the same)
  file(STRINGS "${PROJECT_SOURCE_DIR}/kernel-shim/include/kshim/kconfig.h" lines
       REGEX "^#(define CONFIG_|if !?TB_HAVE_|endif)")
  set(defs "")
  # not `on`: if(on) is the constant ON, whatever the variable holds
  set(keep TRUE)
  foreach(l ${lines})
    if(l MATCHES "^#if (!?)TB_HAVE_([A-Za-z0-9_]+)")
      set(keep FALSE)
      if((CMAKE_MATCH_1 STREQUAL "" AND TB_HAVE_${CMAKE_MATCH_2}) OR
         (CMAKE_MATCH_1 STREQUAL "!" AND NOT TB_HAVE_${CMAKE_MATCH_2}))
        set(keep TRUE)
      endif()
    elseif(l MATCHES "^#endif")
      set(keep TRUE)
    elseif(keep)
      string(REGEX REPLACE "^#define (CONFIG_[A-Za-z0-9_]+) (.*)$" "\\1=\\2" d "${l}")
      list(APPEND defs "-D" "${d}")
    endif()
  endforeach()
  set(${out} "${defs}" PARENT_SCOPE)
endfunction()

# An extraction step's command: tools/kgen_cache.py runs kextract (and
# kdeclare, after `::`) in one Python process, from the extraction cache
# when one is set (TB_KGEN_CACHE_DIR: this build directory's path is a
# placeholder in the cache's keys and entries).
function(kgen_command out)
  set(c ${Python3_EXECUTABLE} "${PROJECT_SOURCE_DIR}/tools/kgen_cache.py")
  if(TB_KGEN_CACHE_DIR)
    list(APPEND c --kgen-cache "${TB_KGEN_CACHE_DIR}" --kgen-build "${CMAKE_BINARY_DIR}")
  endif()
  set(${out} ${c} PARENT_SCOPE)
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
  # the main tree's extracts open with the tree's own declarations of what
  # they reach and the project never names (tools/kdeclare): a stable
  # update's new callee needs no edit here
  set(auto "")
  set(decl "")
  kgen_command(cmd)
  if(tree STREQUAL KTREE)
    set(auto --refs "${out}.refs" --prelude "${out}.auto.h")
    set(decl :: kdeclare header
            "${out}.refs" --root "${tree}" --tree "${K_LABEL}" --known "${TB_KNOWN}"
            --provided "${KGEN_INCLUDE}" ${defs} -o "${out}.auto.h")
  endif()
  add_custom_command(OUTPUT "${out}"
    COMMAND ${cmd} kextract
            "${tree}/${file}" --srcname "${tree}/${file}" --tree "${K_LABEL}"
            --root "${tree}" --known "${TB_KNOWN}"
            ${defs} ${feats} ${margs} ${K_ARGS} ${auto} -o "${out}"
            ${decl}
    BYPRODUCTS ${out}.refs ${out}.auto.h ${out}.auto.h.gaps ${out}.auto.h.key
    DEPENDS "${tree}/${file}" "${PROJECT_SOURCE_DIR}/tools/kextract" ${K_MANIFEST}
            "${PROJECT_SOURCE_DIR}/tools/kgen_cache.py"
            "${PROJECT_SOURCE_DIR}/tools/kdeclare" "${TB_KNOWN}"
            "${TB_FEATURES_FILE}"
            "${PROJECT_SOURCE_DIR}/kernel-shim/include/kshim/kconfig.h"
    COMMENT "kextract ${file}"
    VERBATIM)
endfunction()

# kernel_known(): the identifiers the project names (kernel-shim/, mm/:
# code and manifests), which tools/kdeclare leaves to the project.
function(kernel_known)
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS
    "${PROJECT_SOURCE_DIR}/kernel-shim/*.[ch]" "${PROJECT_SOURCE_DIR}/kernel-shim/*.manifest"
    "${PROJECT_SOURCE_DIR}/mm/*.[ch]" "${PROJECT_SOURCE_DIR}/mm/*.manifest")
  add_custom_command(OUTPUT "${TB_KNOWN}"
    COMMAND ${Python3_EXECUTABLE} "${PROJECT_SOURCE_DIR}/tools/kdeclare" known "${TB_KNOWN}"
            "${PROJECT_SOURCE_DIR}/kernel-shim" "${PROJECT_SOURCE_DIR}/mm"
    DEPENDS ${srcs} "${PROJECT_SOURCE_DIR}/tools/kdeclare"
    COMMENT "kdeclare known"
    VERBATIM)
  _kgen_step(kgen_known "${TB_KNOWN}")
endfunction()

# kextract_header(<tree> <file> <out> <manifest>): header pieces, extracted
# at build time before anything compiles (drift fails the build with
# kextract's one line); kextract rewrites an output only when its text
# changes, so an edit elsewhere in the header recompiles nothing.
function(kextract_header tree file out manifest)
  kernel_config_defines(defs)
  kernel_features("${tree}" feats)
  kgen_command(cmd)
  if(NOT EXISTS "${tree}/${file}")
    message(FATAL_ERROR "kernel tree ${tree}: ${file}: file missing")
  endif()
  get_filename_component(outdir "${out}" DIRECTORY)
  file(MAKE_DIRECTORY "${outdir}")
  add_custom_command(OUTPUT "${out}"
    COMMAND ${cmd} kextract
            "${tree}/${file}" --srcname "${tree}/${file}" --tree "${tree}" --root "${tree}"
            ${defs} ${feats} --no-includes --manifest "${manifest}" -o "${out}"
    BYPRODUCTS "${out}.gone"
    DEPENDS "${tree}/${file}" "${manifest}" "${PROJECT_SOURCE_DIR}/tools/kextract"
            "${PROJECT_SOURCE_DIR}/tools/kgen_cache.py"
            "${PROJECT_SOURCE_DIR}/kernel-shim/include/kshim/kconfig.h" "${TB_FEATURES_FILE}"
    COMMENT "kextract ${file} (header pieces)"
    VERBATIM)
  string(MD5 id "${out}")
  string(SUBSTRING "${id}" 0 12 id)
  _kgen_step(kgen_${id} "${out}")
endfunction()

# tb_kernel_library(<name> <source>...): a library of the kernel's code,
# of TB_KERNEL_LIBRARY_TYPE: SHARED in the plain test build, where an edit
# of a kernel file then relinks its library alone (the tests do not link
# the file's library again: CMAKE_LINK_DEPENDS_NO_SHARED); STATIC in every
# other build (sanitizers, coverage, release, fuzzing, mutate).
function(tb_kernel_library name)
  add_library(${name} ${TB_KERNEL_LIBRARY_TYPE} ${ARGN})
  if(TB_KERNEL_LIBRARY_TYPE STREQUAL SHARED)
    # its own per-CPU section, copied at boot by the executable's shim
    target_sources(${name} PRIVATE "${PROJECT_SOURCE_DIR}/kernel-shim/percpu_module.c")
    # the shim's thread-local context (current, the virtual CPU) is the
    # executable's, in its static TLS block: read without __tls_get_addr
    target_compile_options(${name} PRIVATE -ftls-model=initial-exec)
    # its calls to its own functions direct, not through the PLT: nothing
    # else defines them (tests/labels' one_definition), so no executable
    # or other library could take them over (their data stays interposable:
    # an executable's copy relocation moves a variable out of the library)
    target_compile_options(${name} PRIVATE -fno-semantic-interposition)
    target_link_options(${name} PRIVATE -Wl,-Bsymbolic-functions)
  endif()
endfunction()

# tb_kernel_link_libraries(<name> <lib>...): what a tb_kernel_library()
# needs, PUBLIC for a static one. A shared one links none of them: each
# reaches the executable alone (INTERFACE), and the library's undefined
# symbols bind to the executable's (its -rdynamic, kshim) or to another
# kernel library, so a static library (kshim, klib, kworld, ...) is never
# in a .so as well as in the executable: one copy of the world's globals.
# The INTERFACE libraries among them (kenv, kenv61: include directories,
# compile options) are also the library's own (PRIVATE).
function(tb_kernel_link_libraries name)
  get_target_property(type ${name} TYPE)
  if(NOT type STREQUAL SHARED_LIBRARY)
    target_link_libraries(${name} PUBLIC ${ARGN})
    return()
  endif()
  target_link_libraries(${name} INTERFACE ${ARGN})
  foreach(lib ${ARGN})
    if(TARGET ${lib})
      get_target_property(t ${lib} TYPE)
      if(t STREQUAL INTERFACE_LIBRARY)
        target_link_libraries(${name} PRIVATE ${lib})
      endif()
    endif()
  endforeach()
endfunction()

# The targets of a directory and of every directory below it.
function(_tb_targets_below dir out)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(sub ${subdirs})
    _tb_targets_below("${sub}" more)
    list(APPEND targets ${more})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

# tb_coverage_kernel_sources(): gcov counters, at -O0, in every translation
# unit of the kernel's code: the trees' files, their extracts (kernel-gen*)
# and the units of mm/ that include them. Called once all targets exist.
# The counters are plain adds (-fprofile-update=single): atomic ones made
# the suites five times slower (test_reclaim_scan: 30 s of CPU, not 5.6).
# A stress suite's threads can lose an increment on a line they run
# together, never turn a line they ran into one not run: the lines
# covered were the same with atomic counters (2026-12-07, 6.12.118).
function(tb_coverage_kernel_sources)
  set(kernel_dirs "${KTREE}/" "${CMAKE_BINARY_DIR}/kernel-gen" "${PROJECT_SOURCE_DIR}/mm/")
  if(KTREE_BEFORE)
    list(APPEND kernel_dirs "${KTREE_BEFORE}/")
  endif()
  _tb_targets_below("${PROJECT_SOURCE_DIR}" targets)
  foreach(t ${targets})
    get_target_property(type ${t} TYPE)
    if(NOT type MATCHES "^(STATIC_LIBRARY|SHARED_LIBRARY|OBJECT_LIBRARY|MODULE_LIBRARY|EXECUTABLE)$")
      continue()
    endif()
    get_target_property(srcs ${t} SOURCES)
    get_target_property(sdir ${t} SOURCE_DIR)
    foreach(src ${srcs})
      if(src MATCHES "^\\$<")
        continue()
      endif()
      get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${sdir}")
      if(NOT abs MATCHES "\\.c$")
        continue()
      endif()
      foreach(d ${kernel_dirs})
        string(FIND "${abs}" "${d}" at)
        if(at EQUAL 0)
          set_property(SOURCE "${abs}" TARGET_DIRECTORY ${t} APPEND
            PROPERTY COMPILE_OPTIONS --coverage -O0 -fprofile-update=single)
          break()
        endif()
      endforeach()
    endforeach()
  endforeach()
endfunction()
