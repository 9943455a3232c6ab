# Runs the real podscope-cli on bad input: it must exit with status 2 and name the problem.
foreach(args "collective;--topology;1000000x1000000" "collective;--bytes;0" "collective;--chunks;-3"
             "collective;--algorithm;nope" "collective;--no-such-flag"
             "simulate" "simulate;--preset;no-such-preset" "simulate;--preset;mlperf07-bert-tf-4096;--chips;100"
             "simulate;--preset;mlperf07-bert-tf-4096;--global-batch;100" "simulate;--config;/nonexistent/podscope.json"
             "sweep;--preset;mlperf07-bert-tf-4096" "simulate;--preset;mlperf07-bert-tf-4096;--wus;maybe"
             "simulte;--preset;mlperf07-bert-tf-4096" "simulate;--preset;mlperf07-bert-tf-4096;--chips;abc"
             "report;--preset;mlperf07-bert-tf-4096;--out;/proc/x")
    execute_process(COMMAND ${PROGRAM} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                    TIMEOUT 5)
    if(NOT rc EQUAL 2)
        message(FATAL_ERROR "podscope-cli ${args}: exit ${rc}, expected 2 (stderr: ${err})")
    endif()
    if(NOT err MATCHES "error: ")
        message(FATAL_ERROR "podscope-cli ${args}: no error message on stderr")
    endif()
endforeach()
