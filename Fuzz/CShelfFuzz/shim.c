#include "CShelfFuzz.h"

// libFuzzer's entry for programs that have their own main (SwiftPM gives every executable one).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int shelf_fuzz_run(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size)) {
    return LLVMFuzzerRunDriver(argc, argv, test);
}
