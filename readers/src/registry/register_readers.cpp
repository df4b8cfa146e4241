// Every reader, one line each (each register_* lives beside its reader). The order is the order
// of the `file_type` enum and of the read tool's description.
#include "mcpread/readers/registry.hpp"

namespace mcpread::readers {

void register_text_reader(ReaderRegistry&);
void register_json_reader(ReaderRegistry&);
void register_image_reader(ReaderRegistry&);
void register_pdf_reader(ReaderRegistry&);
void register_notebook_reader(ReaderRegistry&);
void register_audio_reader(ReaderRegistry&);
void register_docx_reader(ReaderRegistry&);
void register_odt_reader(ReaderRegistry&);
void register_xlsx_reader(ReaderRegistry&);
void register_ods_reader(ReaderRegistry&);
void register_html_reader(ReaderRegistry&);
void register_pptx_reader(ReaderRegistry&);
void register_odp_reader(ReaderRegistry&);
void register_epub_reader(ReaderRegistry&);

void register_readers(ReaderRegistry& registry) {
  register_text_reader(registry);
  register_json_reader(registry);
  register_image_reader(registry);
  register_pdf_reader(registry);
  register_notebook_reader(registry);
  register_audio_reader(registry);
  register_docx_reader(registry);
  register_odt_reader(registry);
  register_xlsx_reader(registry);
  register_ods_reader(registry);
  register_html_reader(registry);
  register_pptx_reader(registry);
  register_odp_reader(registry);
  register_epub_reader(registry);
}

}  // namespace mcpread::readers
