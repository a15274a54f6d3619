# SPDX-License-Identifier: MIT
# ctest bench.gpu: runs `skin-bench --gpu --quick --json F` and checks that F
# holds a CPU and a GPU record for LBS and DQS at 100k p+n+t with every key.
execute_process(COMMAND ${BENCH} --gpu --quick --json ${JSON} RESULT_VARIABLE rc OUTPUT_VARIABLE out)
message("${out}")
if(rc EQUAL 77)
  message(FATAL_ERROR "no Vulkan device")
elseif(NOT rc EQUAL 0)
  message(FATAL_ERROR "skin-bench --gpu failed (${rc})")
endif()
file(READ ${JSON} json)
foreach(path cpu gpu)
  foreach(method lbs dqs)
    string(REGEX MATCH "\\{\"path\": \"${path}\", \"device_name\": \"[^\"]*\", \"device_type\": \"[a-z-]+\", \"method\": \"${method}\", \"vertices\": 100000, \"attributes\": \"p\\+n\\+t\", \"output_format\": \"f32\", \"cpu_ns_per_frame\": [0-9]+, \"gpu_ns_per_frame\": [0-9]+" hit "${json}")
    if(NOT hit)
      message(FATAL_ERROR "no ${path} record for ${method} at 100k in ${JSON}")
    endif()
  endforeach()
endforeach()
