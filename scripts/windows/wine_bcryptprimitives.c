/* A stand-in for Windows 10's bcryptprimitives.dll, for the proof under Wine 8 only (prove.sh puts
 * it beside the suites; it is never shipped). sharp's libvips-42.dll carries Rust code (librsvg),
 * whose standard library imports ProcessPrng from bcryptprimitives.dll, which Wine 8.0 lacks, so
 * the DLL would not load there at all. The same bytes come from BCryptGenRandom, which Wine has. */
#include <windows.h>
#include <bcrypt.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size) {
  while (size > 0) {
    const ULONG chunk = size > 0x40000000 ? 0x40000000 : (ULONG)size;
    if (BCryptGenRandom(NULL, data, chunk, BCRYPT_USE_SYSTEM_PREFERRED_RNG) < 0) return FALSE;
    data += chunk;
    size -= chunk;
  }
  return TRUE;
}
