#pragma once
// Typed dlsym for the libraries loaded on first use (libvips, the PDF plugin).
#include <dlfcn.h>

#include <cstring>

namespace mcpread::readers {

// Stores the address of `name` in `lib` into `slot` as its function-pointer type; false when
// the library has no such symbol.
template <class Fn>
bool load_symbol(void* lib, const char* name, Fn* slot) {
  void* sym = ::dlsym(lib, name);
  if (sym == nullptr) return false;
  static_assert(sizeof(Fn) == sizeof(void*));
  std::memcpy(slot, &sym, sizeof sym);  // object pointer to function pointer, without a cast
  return true;
}

}  // namespace mcpread::readers
