// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>

// The fuzz entry point: the reader on arbitrary bytes, with its equivalence checks. The same
// function runs under libFuzzer (fuzz_reader, the `fuzz` preset) and in the corpus replay
// test (fuzz_replay, any compiler). A failed check prints what differs and aborts.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size);
