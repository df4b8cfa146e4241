#include "mcpread/readers/caches.hpp"

#include "mcpread/readers/registry.hpp"
#include "package/part_cache.hpp"
#include "registry/classified_file.hpp"

namespace mcpread::readers {

// The zip package layer's parts serve every zip-based reader, the classifications every read;
// each reader drops its own.
std::size_t release_caches() {
  std::size_t bytes = package::PartCache::instance().release() + release_classifications();
  for (const Reader& reader : reader_registry().readers())
    if (reader.release != nullptr) bytes += reader.release();
  return bytes;
}

}  // namespace mcpread::readers
