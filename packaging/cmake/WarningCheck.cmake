# Run as the last step of a dev/user build (cmake -DBUILD_DIR=... -DMODE=error|warn -P ...):
# lists the objects whose last compile warned (their OBJECT.warnings files, written by
# compile-logged.sh) and, in "error" mode, fails the build. This catches objects that a "warn"
# (user) build compiled before the developer build took over the same build folder.
file(GLOB_RECURSE logs "${BUILD_DIR}/*.o.warnings")
set(warned "")
foreach(log IN LISTS logs)
    string(REGEX REPLACE "\\.warnings$" "" object "${log}")
    if(EXISTS "${object}")
        file(STRINGS "${log}" lines REGEX ": warning: ")
        if(lines)
            list(APPEND warned "${object}")
        endif()
    endif()
endforeach()
if(warned)
    list(LENGTH warned count)
    string(REPLACE ";" "\n  " listing "${warned}")
    if(MODE STREQUAL "error")
        message(FATAL_ERROR "${count} object(s) were compiled with warnings, and warnings are errors in "
                            "this build (see their .warnings files; touch the sources to see them again):\n  ${listing}")
    endif()
    message(STATUS "${count} object(s) were compiled with warnings:\n  ${listing}")
endif()
