// Built as libOpenCL.so.1 in a directory of its own: an ICD loader's name on a library that never reads
// OPENCL_LAYERS, as the CUDA toolkit's loader does not (end_to_end_options_test.cpp, the layer route alone).
extern "C" __attribute__((visibility("default"))) int gpaprof_test_loader_without_layers() { return 0; }
