#ifndef CSHELFFUZZ_H
#define CSHELFFUZZ_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer's driver with the command-line arguments, calling `test` for each input.
/// Returns the status the process should exit with. Corresponds to `LLVMFuzzerRunDriver`.
int shelf_fuzz_run(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size));

#endif
