# Installs PodScope's development component into a fresh prefix, then configures, builds and runs
# tests/consumer against it: -DBUILD_DIR= (PodScope's build), -DSOURCE_DIR= (tests/consumer),
# -DWORK_DIR= (scratch), -DGENERATOR=.
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE status)
    if(status)
        message(FATAL_ERROR "failed (${status}): ${ARGN}")
    endif()
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix --component development)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)
