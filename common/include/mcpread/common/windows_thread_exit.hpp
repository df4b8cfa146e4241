#pragma once
// The Windows build (mingw-w64) only: when a thread ends, libstdc++ destroys its thread_local
// objects through one winpthreads key, while emutls frees their storage through another, and
// winpthreads runs the keys' destructors in the order the keys were made. emutls makes its key at
// the first thread_local access, before libstdc++ makes its own at the first destructor
// registered: the storage went first, and the destructors then wrote into freed memory (heap
// corruption, seen as a crash in a later free). One destructor registered at start-up, before any
// thread_local is touched, makes libstdc++'s key the first. Included by each executable's main.
#if defined(__MINGW32__)
#include <cxxabi.h>

namespace mcpread::platform::detail {

inline void no_thread_exit_work(void* /*unused*/) {}
// The third argument (the module handle) is unused by libstdc++'s winpthreads fallback.
inline const int thread_exit_order = abi::__cxa_thread_atexit(no_thread_exit_work, nullptr, nullptr);

}  // namespace mcpread::platform::detail
#endif
