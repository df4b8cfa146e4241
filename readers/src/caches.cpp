#include "mcpread/readers/caches.hpp"

#include "package/part_cache.hpp"
#include "pdf/pdf_open.hpp"

namespace mcpread::readers {

std::size_t release_caches() {
  return package::PartCache::instance().release() + pdf::OpenPdfCache::instance().release();
}

}  // namespace mcpread::readers
