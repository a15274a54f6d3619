# SPDX-License-Identifier: MIT
# Real assets (Debian's assimp-testmodels) through the loader skin::assets:
# counts, rest pose, animated poses (kernels vs the reference per ISA, LBS vs
# double precision), loader errors, morph targets.  Not built without the
# loader or models.
if(TARGET skin_assets AND EXISTS ${SKIN_MODELS_DIR}/X/Testwuson.X)
  add_executable(test_assets test_assets.c)
  target_include_directories(test_assets PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/support)
  target_link_libraries(test_assets PRIVATE skin_assets skin skin_warnings assimp::assimp m)
  foreach(isa IN LISTS SKIN_TEST_ISAS)
    add_test(NAME assets_${isa} COMMAND test_assets ${SKIN_MODELS_DIR})
    set_tests_properties(assets_${isa} PROPERTIES
      ENVIRONMENT SKIN_ISA=${isa} SKIP_RETURN_CODE 77 LABELS "assets;kernels")
  endforeach()
  # Morph targets through the loader (AnimatedMorphCube, a generated skinned
  # glTF): fused morph+skin vs two-pass, looping over every ISA the CPU runs.
  add_test(NAME assets_morph COMMAND test_assets ${SKIN_MODELS_DIR} --morph)
  set_tests_properties(assets_morph PROPERTIES LABELS "assets;morph")
else()
  message(STATUS "skin_assets or assimp-testmodels not found: real-asset tests are not built")
endif()
# Scene data no test model has, in a scene built by the test and given to
# the loader's scene entry point (its source compiled in, as fuzz_assets does).
if(TARGET skin_assets)
  add_executable(test_assets_scene test_assets_scene.c)
  target_include_directories(test_assets_scene PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/support)
  target_link_libraries(test_assets_scene PRIVATE skin skin_warnings assimp::assimp m)
  add_test(NAME assets_scene COMMAND test_assets_scene)
  set_tests_properties(assets_scene PROPERTIES LABELS assets)
endif()
