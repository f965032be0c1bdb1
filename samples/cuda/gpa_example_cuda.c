/*
 * The GPA user guide's example (sections 2.2, 2.3, 3 and 7) on CUDA, in C99.
 *
 * It loads libGPUPerfAPICUDA.so with dlopen and resolves every GPA function it calls with dlsym through the
 * <Function>PtrType typedefs (section 2.2), opens the counters on a CUcontext (GPA_OpenContext takes the
 * CUcontext itself), enables all counters and renders "frames": each frame is one GPA session whose passes
 * each sample two kernel launches (the guide's two draw calls). Finished sessions are written to a CSV file
 * by WriteSession (section 7) as soon as they are ready, skipping sessions that newer ones overwrote
 * (section 3.2).
 *
 * The kernels are PTX text that the driver compiles at load time, so building needs only the CUDA headers
 * and the driver library (no nvcc).
 *
 * Run: gpa_example_cuda [--library PATH] [--csv FILE] [--frames N]   (--help for more)
 */
#define _POSIX_C_SOURCE 200809L

#include <cuda.h>
#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "GPUPerfAPI.h"
#include "GPUPerfAPIFunctionTypes.h"

/* ---- the workload: y = a * x + y, and y = y * y, as PTX for any GPU of compute capability 7.0 or newer ---- */

static const char* const kPtx =
    ".version 7.0\n"
    ".target sm_70\n"
    ".address_size 64\n"
    ".visible .entry saxpy(.param .u64 y, .param .u64 x, .param .f32 a, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p; .reg .b32 %r<6>; .reg .f32 %f<4>; .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [y]; ld.param.u64 %rd2, [x]; ld.param.f32 %f1, [a]; ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x; mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "  setp.ge.u32 %p, %r5, %r1; @%p bra DONE;\n"
    "  mul.wide.u32 %rd3, %r5, 4;\n"
    "  cvta.to.global.u64 %rd4, %rd1; add.s64 %rd4, %rd4, %rd3;\n"
    "  cvta.to.global.u64 %rd5, %rd2; add.s64 %rd5, %rd5, %rd3;\n"
    "  ld.global.f32 %f2, [%rd5]; ld.global.f32 %f3, [%rd4];\n"
    "  fma.rn.f32 %f3, %f1, %f2, %f3; st.global.f32 [%rd4], %f3;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n"
    ".visible .entry square(.param .u64 y, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p; .reg .b32 %r<6>; .reg .f32 %f<3>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [y]; ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x; mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "  setp.ge.u32 %p, %r5, %r1; @%p bra DONE;\n"
    "  mul.wide.u32 %rd3, %r5, 4; cvta.to.global.u64 %rd2, %rd1; add.s64 %rd2, %rd2, %rd3;\n"
    "  ld.global.f32 %f1, [%rd2]; mul.f32 %f2, %f1, %f1; st.global.f32 [%rd2], %f2;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

typedef struct {
    CUcontext context;
    CUmodule module;
    CUfunction saxpy;
    CUfunction square;
    CUdeviceptr x;
    CUdeviceptr y;
    unsigned int n;
} Cuda;

static int CuCheck(CUresult result, const char* what) {
    if (result != CUDA_SUCCESS) {
        const char* text = NULL;
        cuGetErrorString(result, &text);
        fprintf(stderr, "gpa_example_cuda: %s failed: %s\n", what, text != NULL ? text : "unknown CUDA error");
        return 0;
    }
    return 1;
}

static int CudaSetUp(Cuda* cuda, unsigned int n) {
    CUdevice device;
    char name[256];
    memset(cuda, 0, sizeof *cuda);
    cuda->n = n;
    if (!CuCheck(cuInit(0), "cuInit (is there a CUDA device?)")) return -1;
    if (!CuCheck(cuDeviceGet(&device, 0), "cuDeviceGet")) return 0;
    cuDeviceGetName(name, sizeof name, device);
    printf("CUDA device 0: %s\n", name);
    /* The device's primary context, the one the CUDA runtime also uses. */
    if (!CuCheck(cuDevicePrimaryCtxRetain(&cuda->context, device), "cuDevicePrimaryCtxRetain")) return 0;
    if (!CuCheck(cuCtxSetCurrent(cuda->context), "cuCtxSetCurrent")) return 0;
    if (!CuCheck(cuModuleLoadData(&cuda->module, kPtx), "cuModuleLoadData")) return 0;
    if (!CuCheck(cuModuleGetFunction(&cuda->saxpy, cuda->module, "saxpy"), "cuModuleGetFunction(saxpy)")) return 0;
    if (!CuCheck(cuModuleGetFunction(&cuda->square, cuda->module, "square"), "cuModuleGetFunction(square)")) return 0;
    if (!CuCheck(cuMemAlloc(&cuda->x, n * sizeof(float)), "cuMemAlloc")) return 0;
    if (!CuCheck(cuMemAlloc(&cuda->y, n * sizeof(float)), "cuMemAlloc")) return 0;
    if (!CuCheck(cuMemsetD32(cuda->x, 0x3f800000u, n), "cuMemsetD32")) return 0; /* 1.0f */
    return CuCheck(cuMemsetD32(cuda->y, 0x3f800000u, n), "cuMemsetD32");
}

static void CudaTearDown(Cuda* cuda) {
    CUdevice device;
    if (cuda->context == NULL) return;
    cuCtxSynchronize();
    if (cuda->y) cuMemFree(cuda->y);
    if (cuda->x) cuMemFree(cuda->x);
    if (cuda->module) cuModuleUnload(cuda->module);
    if (cuCtxGetDevice(&device) == CUDA_SUCCESS) cuDevicePrimaryCtxRelease(device);
}

/* The two "draw calls" of the guide's render loop. */
static void DrawCall(Cuda* cuda, int which) {
    float a = 2.0f;
    unsigned int blocks = (cuda->n + 255) / 256;
    void* saxpyArguments[4];
    void* squareArguments[2];
    saxpyArguments[0] = &cuda->y;
    saxpyArguments[1] = &cuda->x;
    saxpyArguments[2] = &a;
    saxpyArguments[3] = &cuda->n;
    squareArguments[0] = &cuda->y;
    squareArguments[1] = &cuda->n;
    if (which == 0) {
        CuCheck(cuLaunchKernel(cuda->saxpy, blocks, 1, 1, 256, 1, 1, 0, NULL, saxpyArguments, NULL), "saxpy");
    } else {
        CuCheck(cuLaunchKernel(cuda->square, blocks, 1, 1, 256, 1, 1, 0, NULL, squareArguments, NULL), "square");
    }
}

/* ---- the GPA functions this program uses (section 2.2, step 3: instances of the function types) ---- */

typedef struct {
    GPA_RegisterLoggingCallbackPtrType RegisterLoggingCallback;
    GPA_InitializePtrType Initialize;
    GPA_DestroyPtrType Destroy;
    GPA_OpenContextPtrType OpenContext;
    GPA_CloseContextPtrType CloseContext;
    GPA_GetDeviceDescPtrType GetDeviceDesc;
    GPA_GetCounterNamePtrType GetCounterName;
    GPA_GetCounterDataTypePtrType GetCounterDataType;
    GPA_EnableAllCountersPtrType EnableAllCounters;
    GPA_GetEnabledCountPtrType GetEnabledCount;
    GPA_GetEnabledIndexPtrType GetEnabledIndex;
    GPA_GetPassCountPtrType GetPassCount;
    GPA_BeginSessionPtrType BeginSession;
    GPA_EndSessionPtrType EndSession;
    GPA_BeginPassPtrType BeginPass;
    GPA_EndPassPtrType EndPass;
    GPA_BeginSamplePtrType BeginSample;
    GPA_EndSamplePtrType EndSample;
    GPA_GetSampleCountPtrType GetSampleCount;
    GPA_IsSessionReadyPtrType IsSessionReady;
    GPA_GetSampleUInt32PtrType GetSampleUInt32;
    GPA_GetSampleUInt64PtrType GetSampleUInt64;
    GPA_GetSampleFloat32PtrType GetSampleFloat32;
    GPA_GetSampleFloat64PtrType GetSampleFloat64;
    GPA_GetStatusAsStrPtrType GetStatusAsStr;
} GpaFunctions;

static GpaFunctions gpa;

/* dlsym returns an object pointer; copying its bytes is the portable way to a function pointer in C. */
static int LoadFunction(void* library, const char* name, void* slot, size_t slotSize) {
    void* symbol = dlsym(library, name);
    if (symbol == NULL || slotSize != sizeof symbol) {
        fprintf(stderr, "gpa_example_cuda: %s is missing from the GPA library\n", name);
        return 0;
    }
    memcpy(slot, &symbol, slotSize);
    return 1;
}

#define LOAD(name) LoadFunction(library, "GPA_" #name, &gpa.name, sizeof gpa.name)

static void* LoadGpa(const char* path) {
    void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL); /* section 2.2, step 4 */
    if (library == NULL) {
        fprintf(stderr, "gpa_example_cuda: cannot load %s: %s\n", path, dlerror());
        return NULL;
    }
    /* section 2.2, step 5 */
    if (!(LOAD(RegisterLoggingCallback) && LOAD(Initialize) && LOAD(Destroy) && LOAD(OpenContext) &&
          LOAD(CloseContext) && LOAD(GetDeviceDesc) && LOAD(GetCounterName) && LOAD(GetCounterDataType) &&
          LOAD(EnableAllCounters) && LOAD(GetEnabledCount) && LOAD(GetEnabledIndex) && LOAD(GetPassCount) &&
          LOAD(BeginSession) && LOAD(EndSession) && LOAD(BeginPass) && LOAD(EndPass) && LOAD(BeginSample) &&
          LOAD(EndSample) && LOAD(GetSampleCount) && LOAD(IsSessionReady) && LOAD(GetSampleUInt32) &&
          LOAD(GetSampleUInt64) && LOAD(GetSampleFloat32) && LOAD(GetSampleFloat64) && LOAD(GetStatusAsStr))) {
        dlclose(library);
        return NULL;
    }
    return library;
}

/* Section 2.3: errors and messages from GPA, printed without a trailing newline of their own. */
static void Logger(GPA_Logging_Type type, const char* message) {
    fprintf(type == GPA_LOGGING_ERROR ? stderr : stdout, "GPA %s: %s\n", type == GPA_LOGGING_ERROR ? "error" : "message",
            message);
}

/* ---- section 7: write one finished session to a CSV file ---- */

static int WriteSession(gpa_uint32 sessionId, const char* filename) {
    static int doneHeadings = 0;
    gpa_uint32 count = 0, sampleCount = 0, counter, sample;
    FILE* f;
    gpa.GetEnabledCount(&count);
    if (!doneHeadings) {
        const char* name;
        f = fopen(filename, "w");
        if (f == NULL) return 0;
        fprintf(f, "Identifier, ");
        for (counter = 0; counter < count; counter++) {
            gpa_uint32 enabledCounterIndex;
            gpa.GetEnabledIndex(counter, &enabledCounterIndex);
            gpa.GetCounterName(enabledCounterIndex, &name);
            fprintf(f, "%s, ", name);
        }
        fprintf(f, "\n");
        fclose(f);
        doneHeadings = 1;
    }
    f = fopen(filename, "a+");
    if (f == NULL) return 0;
    gpa.GetSampleCount(sessionId, &sampleCount);
    for (sample = 0; sample < sampleCount; sample++) {
        fprintf(f, "session: %u; sample: %u, ", sessionId, sample);
        for (counter = 0; counter < count; counter++) {
            gpa_uint32 enabledCounterIndex;
            GPA_Type type;
            gpa.GetEnabledIndex(counter, &enabledCounterIndex);
            gpa.GetCounterDataType(enabledCounterIndex, &type);
            if (type == GPA_TYPE_UINT32) {
                gpa_uint32 value;
                gpa.GetSampleUInt32(sessionId, sample, enabledCounterIndex, &value);
                fprintf(f, "%u,", value);
            } else if (type == GPA_TYPE_UINT64) {
                gpa_uint64 value;
                gpa.GetSampleUInt64(sessionId, sample, enabledCounterIndex, &value);
                fprintf(f, "%" PRIu64 ",", value);
            } else if (type == GPA_TYPE_FLOAT32) {
                gpa_float32 value;
                gpa.GetSampleFloat32(sessionId, sample, enabledCounterIndex, &value);
                fprintf(f, "%f,", value);
            } else if (type == GPA_TYPE_FLOAT64) {
                gpa_float64 value;
                gpa.GetSampleFloat64(sessionId, sample, enabledCounterIndex, &value);
                fprintf(f, "%f,", value);
            }
        }
        fprintf(f, "\n");
    }
    fclose(f);
    return 1;
}

static void Usage(void) {
    printf("usage: gpa_example_cuda [--library PATH] [--csv FILE] [--frames N]\n"
           "  --library PATH  the GPA library to load (default: libGPUPerfAPICUDA.so on the loader's path)\n"
           "  --csv FILE      where WriteSession writes the results (default: GPUPerfAPI-CUDA-Example.csv)\n"
           "  --frames N      frames to render, one GPA session each (default: 3)\n");
}

int main(int argc, char** argv) {
    const char* libraryPath = "libGPUPerfAPICUDA.so";
    const char* csv = "GPUPerfAPI-CUDA-Example.csv";
    int frames = 3, i, frame, status = EXIT_FAILURE;
    gpa_uint32 currentWaitSessionId = 1, written = 0;
    void* library;
    Cuda cuda;

    for (i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--library") == 0 && i + 1 < argc) libraryPath = argv[++i];
        else if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc) csv = argv[++i];
        else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) frames = atoi(argv[++i]);
        else {
            Usage();
            return strcmp(argv[i], "--help") == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
        }
    }

    library = LoadGpa(libraryPath);
    if (library == NULL) return EXIT_FAILURE;
    gpa.RegisterLoggingCallback(GPA_LOGGING_ERROR_AND_MESSAGE, Logger);

    /* Section 3.1: start-up. */
    if (gpa.Initialize() != GPA_STATUS_OK) goto unload;
    i = CudaSetUp(&cuda, 1u << 22);
    if (i != 1) {
        if (i < 0) status = 77; /* no CUDA device: nothing to profile here (the test counts this as skipped) */
        goto destroy;
    }
    if (gpa.OpenContext(cuda.context, GPA_OPENCONTEXT_DEFAULT_BIT) != GPA_STATUS_OK) goto teardown;
    {
        const char* description = NULL;
        if (gpa.GetDeviceDesc(&description) == GPA_STATUS_OK) printf("GPA device: %s\n", description);
    }
    gpa.EnableAllCounters();

    /* Section 3.2: the render loop. */
    for (frame = 0; frame < frames; ++frame) {
        gpa_uint32 sessionId, numRequiredPasses, pass;
        if (gpa.BeginSession(&sessionId) != GPA_STATUS_OK) goto close;
        gpa.GetPassCount(&numRequiredPasses);
        for (pass = 0; pass < numRequiredPasses; pass++) {
            gpa.BeginPass();
            gpa.BeginSample(0);
            DrawCall(&cuda, 0);
            gpa.EndSample();
            gpa.BeginSample(1);
            DrawCall(&cuda, 1);
            gpa.EndSample();
            gpa.EndPass();
        }
        gpa.EndSession();
        printf("frame %d: session %u, %u passes\n", frame, sessionId, numRequiredPasses);

        /* Write every session that is ready, oldest first; skip sessions that were overwritten. */
        while (currentWaitSessionId <= sessionId) {
            bool readyResult = false;
            GPA_Status sessionStatus = gpa.IsSessionReady(&readyResult, currentWaitSessionId);
            if (sessionStatus == GPA_STATUS_ERROR_SESSION_NOT_FOUND) {
                currentWaitSessionId++; /* skipping a session which got overwritten */
                continue;
            }
            /* The last frame waits for its results; earlier frames only take what is ready. */
            if (!readyResult && frame + 1 < frames) break;
            if (!readyResult) {
                const struct timespec millisecond = {0, 1000000};
                nanosleep(&millisecond, NULL);
                continue;
            }
            if (WriteSession(currentWaitSessionId, csv)) written++;
            currentWaitSessionId++;
        }
    }
    printf("wrote %u session(s) to %s\n", written, csv);
    status = written == (gpa_uint32)frames ? EXIT_SUCCESS : EXIT_FAILURE;

    /* Section 3.3: on exit. */
close:
    gpa.CloseContext();
teardown:
    CudaTearDown(&cuda);
destroy:
    gpa.Destroy();
unload:
    dlclose(library);
    return status;
}
