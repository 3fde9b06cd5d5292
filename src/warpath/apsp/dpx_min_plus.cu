// Floyd-Warshall's min-plus step through Hopper's DPX instructions (CUDA 12+, sm_90).
//
// numba-cuda's foreign-function ABI: the result goes through the first pointer
// and the int return value says "no Python exception" (0). With link-time
// optimisation (nvJitLink) these calls are inlined into the numba kernels; on GPUs
// before sm_90 the intrinsics are emulated, which is why warpath selects them
// only on compute capability 9.0 and later.

extern "C" __device__ int warpath_dpx_min_plus(int *result, int a, int b, int c)
{
    *result = __viaddmin_s32(a, b, c);   // min(a + b, c) in one instruction
    return 0;
}

extern "C" __device__ int warpath_dpx_min_plus_clamped(int *result, int a, int b, int c,
                                                        int floor)
{
    *result = max(__viaddmin_s32(a, b, c), floor);   // one IMNMX more
    return 0;
}
