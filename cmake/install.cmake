# cmake/install.cmake — `cmake --install` for the ringbench library (issue 15):
#   lib/            libringbench.a and libringbench.so.MAJOR (the same sources)
#   include/ringbench/  the public headers and the generated version.h
#   lib/pkgconfig/ringbench.pc         relocatable (prefix from ${pcfiledir})
#   lib/cmake/ringbench/               ringbenchConfig.cmake, its version file and the
#                                      exported targets ringbench::ringbench (shared) and
#                                      ringbench::ringbench_static
# Included from the top CMakeLists.txt after the `ringbench` target exists; it takes that
# target's sources as they are, so the source list stays in one place.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The version header, generated from project(VERSION) into the build tree.
set(RB_GENERATED_INCLUDE ${PROJECT_BINARY_DIR}/generated/include)
configure_file(${CMAKE_CURRENT_LIST_DIR}/version.h.in ${RB_GENERATED_INCLUDE}/ringbench/version.h
               @ONLY)

# The static library stays position-dependent: it is what the benchmarks and the gate measure
# (-fPIC cost 15 instructions per key lookup there). Position-independent objects are built
# once for the shared library and for libringbench_pic.a, which the Postgres extension links
# (queue/ext/Makefile; not installed).
set_target_properties(ringbench PROPERTIES EXPORT_NAME ringbench_static)
target_include_directories(ringbench PUBLIC $<BUILD_INTERFACE:${RB_GENERATED_INCLUDE}>
                                            $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)

# The shared library: the same sources and include folders as the static one.
get_target_property(rb_lib_sources ringbench SOURCES)
get_target_property(rb_lib_includes ringbench INCLUDE_DIRECTORIES)
get_target_property(rb_lib_defines ringbench COMPILE_DEFINITIONS)
add_library(ringbench_pic_objects OBJECT ${rb_lib_sources})
set_target_properties(ringbench_pic_objects PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(ringbench_pic_objects PRIVATE ${rb_lib_includes})
if(rb_lib_defines)
  target_compile_definitions(ringbench_pic_objects PRIVATE ${rb_lib_defines})
endif()
add_library(ringbench_pic STATIC $<TARGET_OBJECTS:ringbench_pic_objects>)
add_library(ringbench_shared SHARED $<TARGET_OBJECTS:ringbench_pic_objects>)
target_include_directories(ringbench_shared INTERFACE
                           $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include;${RB_GENERATED_INCLUDE}>
                           $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_link_libraries(ringbench_shared PRIVATE PkgConfig::XXHASH m)
set_target_properties(ringbench_shared PROPERTIES
  OUTPUT_NAME ringbench EXPORT_NAME ringbench
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})

install(TARGETS ringbench ringbench_shared EXPORT ringbenchTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ringbench ${RB_GENERATED_INCLUDE}/ringbench
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")

set(RB_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ringbench)
install(EXPORT ringbenchTargets NAMESPACE ringbench:: DESTINATION ${RB_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/ringbenchConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/ringbenchConfig.cmake
                              INSTALL_DESTINATION ${RB_CMAKE_DIR})
# 0.x: only the same minor version is compatible (SameMinorVersion); from 1.0 on, SameMajorVersion.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ringbenchConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ringbenchConfig.cmake
              ${PROJECT_BINARY_DIR}/ringbenchConfigVersion.cmake
        DESTINATION ${RB_CMAKE_DIR})

# ringbench.pc: relocatable, so an install with `cmake --install --prefix P` works as is.
file(RELATIVE_PATH RB_PC_UP /x/${CMAKE_INSTALL_LIBDIR}/pkgconfig /x)
set(RB_PC_PREFIX "\${pcfiledir}/${RB_PC_UP}")
if(IS_ABSOLUTE ${CMAKE_INSTALL_LIBDIR})
  set(RB_PC_LIBDIR ${CMAKE_INSTALL_LIBDIR})
else()
  set(RB_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE ${CMAKE_INSTALL_INCLUDEDIR})
  set(RB_PC_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR})
else()
  set(RB_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/ringbench.pc.in ${PROJECT_BINARY_DIR}/ringbench.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/ringbench.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The consumer test: install into a temporary prefix, build cmake/consumer against it with
# pkg-config and with find_package, run it (`order:9182` -> bucket 43 under fnv1a32, B = 1024).
set(RB_CONSUMER_FLAGS "")
if(RINGBENCH_SANITIZE)
  set(RB_CONSUMER_FLAGS "-fsanitize=address,undefined")
endif()
add_test(NAME install.consumer
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test_install.sh ${PROJECT_BINARY_DIR}
                 ${CMAKE_CURRENT_LIST_DIR}/consumer ${PROJECT_VERSION})
set_tests_properties(install.consumer PROPERTIES LABELS install TIMEOUT 300
                     ENVIRONMENT "RB_CONSUMER_FLAGS=${RB_CONSUMER_FLAGS};CC=${CMAKE_C_COMPILER}")
