# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
# What `cmake --install` puts under the prefix: the library (versioned,
# SONAME libhyla.so.0), the drop-in LAPACK (libhyla_lapack.so.0), the
# headers, the drivers, hyla-calibrate, the reference models, hyla.pc and
# the CMake package (hyla::hyla).
#
# StarPU stays where it is (the project's cache, or the user's own): its
# library folder is recorded in the runtime paths of both libraries and the
# drivers and in both package files, so that a program built against the
# installed hyla runs with no LD_LIBRARY_PATH. The rest of the runtime
# paths is relative ($ORIGIN): the prefix can move.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(hyla_starpu_libdirs "${STARPU_LIBRARY_DIRS}")
if(HYLA_WITH_CUDA)
  list(APPEND hyla_starpu_libdirs "${CUDAToolkit_LIBRARY_DIR}") # cuBLAS, cuSOLVER
endif()
list(REMOVE_ITEM hyla_starpu_libdirs ${CMAKE_C_IMPLICIT_LINK_DIRECTORIES}) # the system's
set_target_properties(hyla hyla_lapack PROPERTIES INSTALL_RPATH "$ORIGIN;${hyla_starpu_libdirs}")
set(hyla_drivers qr_mgs qr_cgs qr_householder hr_reduce tridiag_reduce bidiag_reduce eigh svd)
set_target_properties(${hyla_drivers} PROPERTIES
  INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR};${hyla_starpu_libdirs}")

install(TARGETS hyla EXPORT hylaTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_COMPONENT Development
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS hyla_lapack LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES include/hyla.h include/hyla_async.h include/hyla_codelets.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS ${hyla_drivers} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(PROGRAMS perfmodels/calibrate.sh DESTINATION ${CMAKE_INSTALL_BINDIR}
  RENAME hyla-calibrate)
install(DIRECTORY perfmodels/reference/ DESTINATION ${CMAKE_INSTALL_DATADIR}/hyla/models)
install(FILES examples/eigen_pipeline.c examples/sched_contexts.c examples/program.h
  DESTINATION ${CMAKE_INSTALL_DATADIR}/hyla/examples)
install(FILES LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/hyla)
# hyla over StarPU-MPI, where built: its library, header and drivers.
if(HYLA_WITH_MPI)
  set_target_properties(hyla_mpi PROPERTIES INSTALL_RPATH "$ORIGIN;${hyla_starpu_libdirs}")
  set_target_properties(qr_rows qr_cols PROPERTIES
    INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR};${hyla_starpu_libdirs}")
  install(TARGETS hyla_mpi LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(FILES include/hyla_mpi.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(TARGETS qr_rows qr_cols RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

# hyla.pc: relative to its own folder, StarPU's flags written in (so that
# pkg-config needs no path to StarPU's own .pc).
list(JOIN STARPU_CFLAGS " " hyla_pc_cflags)
set(hyla_pc_libs "")
foreach(dir ${hyla_starpu_libdirs})
  string(APPEND hyla_pc_libs " -L${dir} -Wl,-rpath,${dir}")
endforeach()
foreach(lib ${STARPU_LIBRARIES})
  string(APPEND hyla_pc_libs " -l${lib}")
endforeach()
file(RELATIVE_PATH hyla_pc_up "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p") # ../.. for lib
string(REGEX REPLACE "/$" "" hyla_pc_up "${hyla_pc_up}")
configure_file(cmake/hyla.pc.in hyla.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/hyla.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The CMake package: hyla::hyla with StarPU's headers and library in its
# interface (the headers of the asynchronous API include starpu.h).
install(EXPORT hylaTargets NAMESPACE hyla:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hyla)
configure_package_config_file(cmake/hylaConfig.cmake.in hylaConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hyla)
write_basic_package_version_file(hylaConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/hylaConfig.cmake ${PROJECT_BINARY_DIR}/hylaConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hyla)
