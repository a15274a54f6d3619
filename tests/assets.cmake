# Real assets (Debian's assimp-testmodels, loaded with libassimp-dev): bind
# pose and animated poses, kernels vs the reference, once per ISA.  Skipped
# at configure time when assimp or the models are missing (e.g. cross builds).
find_package(assimp CONFIG QUIET)
set(SKIN_TEST_MODELS
  /usr/share/assimp/models/X/BCN_Epileptic.X
  /usr/share/assimp/models/X/anim_test.x
  /usr/share/assimp/models/FBX/animation_with_skeleton.fbx)
set(models_found ON)
foreach(model IN LISTS SKIN_TEST_MODELS)
  if(NOT EXISTS ${model})
    set(models_found OFF)
  endif()
endforeach()
if(assimp_FOUND AND models_found)
  add_executable(test_assets test_assets.c)
  target_include_directories(test_assets PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/support)
  target_link_libraries(test_assets PRIVATE skin skin_warnings assimp::assimp m)
  foreach(isa IN LISTS SKIN_TEST_ISAS)
    add_test(NAME assets_${isa} COMMAND test_assets ${SKIN_TEST_MODELS})
    set_tests_properties(assets_${isa} PROPERTIES
      ENVIRONMENT SKIN_ISA=${isa} SKIP_RETURN_CODE 77 LABELS "assets;kernels")
  endforeach()
else()
  message(STATUS "assimp or assimp-testmodels not found: real-asset tests are not built")
endif()
