# Cross-compiling for Windows x64 with Debian's mingw-w64 (g++-mingw-w64-x86-64-posix, GCC 12).
# The -posix variant is the one with std::thread and std::mutex (winpthreads); the -win32 one
# lacks them. scripts/windows/deps.sh installs it and builds the dependencies into a prefix that
# it passes as MCPREAD_WINDOWS_PREFIX.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(mcpread_mingw x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${mcpread_mingw}-gcc-posix)
set(CMAKE_CXX_COMPILER ${mcpread_mingw}-g++-posix)
set(CMAKE_RC_COMPILER ${mcpread_mingw}-windres)
set(CMAKE_AR ${mcpread_mingw}-gcc-ar-posix CACHE FILEPATH "")
set(CMAKE_RANLIB ${mcpread_mingw}-gcc-ranlib-posix CACHE FILEPATH "")
set(CMAKE_OBJCOPY ${mcpread_mingw}-objcopy CACHE FILEPATH "")

# Libraries and headers come from mingw's own tree and the dependency prefix only, never from the
# build machine's /usr (glibc's headers would compile and then fail to link, or worse).
set(MCPREAD_WINDOWS_PREFIX "" CACHE PATH "The prefix scripts/windows/deps.sh built")
set(CMAKE_FIND_ROOT_PATH /usr/${mcpread_mingw} ${MCPREAD_WINDOWS_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# The executables run under Wine when CMake or ctest needs to run one.
find_program(MCPREAD_WINE64 wine64 PATHS /usr/lib/wine NO_DEFAULT_PATH)
if(MCPREAD_WINE64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${MCPREAD_WINE64})
endif()
