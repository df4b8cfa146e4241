// The one doctest main shared by every test executable.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#if defined(__MINGW32__)
#include "mcpread/common/windows_thread_exit.hpp"  // before any thread_local is touched
#endif
