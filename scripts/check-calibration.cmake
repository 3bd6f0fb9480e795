# ctest calibration_current (tests/CMakeLists.txt): configs/calibration.yaml, the calibration
# status `edgesim run` prints, must be what `edgesim validate --calibration` writes today.
#   cmake -DEDGESIM=<edgesim> -DSRC=<source dir> -DOUT=<scratch file> -P scripts/check-calibration.cmake
execute_process(COMMAND ${EDGESIM} validate --calibration ${OUT} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err
                WORKING_DIRECTORY ${SRC})
if(NOT rc EQUAL 0 AND NOT rc EQUAL 1)   # 1: a case outside its tolerance, which the file records
  message(FATAL_ERROR "edgesim validate --calibration failed (exit ${rc}): ${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT} ${SRC}/configs/calibration.yaml RESULT_VARIABLE differ)
if(differ)
  message(FATAL_ERROR "configs/calibration.yaml is not what validate gives today; regenerate it from the "
                      "source tree with: build/edgesim validate --calibration configs/calibration.yaml")
endif()
