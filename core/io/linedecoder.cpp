// SPDX-License-Identifier: MIT
#include "core/io/linedecoder.h"

namespace TraceInspector {

namespace portable { std::unique_ptr<LineDecoder> makeDecoder(Trace &trace); }
#if defined(TI_HAVE_AVX2_DECODER)
namespace avx2 { std::unique_ptr<LineDecoder> makeDecoder(Trace &trace); }
#endif

LineDecoder::~LineDecoder() = default;

std::unique_ptr<LineDecoder> makeLineDecoder(Trace &trace)
{
#if defined(TI_HAVE_AVX2_DECODER)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("pclmul"))
        return avx2::makeDecoder(trace);
#endif
    return portable::makeDecoder(trace);
}

} // namespace TraceInspector
