// Every reader: its declaration and its place in the list (each register_* lives beside its
// reader). The order is the order of the `file_type` enum and of the read tool's description.
#include "mcpread/readers/registry.hpp"

#include <array>

namespace mcpread::readers {

[[nodiscard]] bool register_text_reader(ReaderRegistry&);
[[nodiscard]] bool register_json_reader(ReaderRegistry&);
[[nodiscard]] bool register_image_reader(ReaderRegistry&);
[[nodiscard]] bool register_pdf_reader(ReaderRegistry&);
[[nodiscard]] bool register_notebook_reader(ReaderRegistry&);
[[nodiscard]] bool register_audio_reader(ReaderRegistry&);
[[nodiscard]] bool register_docx_reader(ReaderRegistry&);
[[nodiscard]] bool register_odt_reader(ReaderRegistry&);
[[nodiscard]] bool register_xlsx_reader(ReaderRegistry&);
[[nodiscard]] bool register_xlsb_reader(ReaderRegistry&);
[[nodiscard]] bool register_ods_reader(ReaderRegistry&);
[[nodiscard]] bool register_xls_reader(ReaderRegistry&);
[[nodiscard]] bool register_html_reader(ReaderRegistry&);
[[nodiscard]] bool register_pptx_reader(ReaderRegistry&);
[[nodiscard]] bool register_odp_reader(ReaderRegistry&);
[[nodiscard]] bool register_ppt_reader(ReaderRegistry&);
[[nodiscard]] bool register_epub_reader(ReaderRegistry&);
[[nodiscard]] bool register_mobi_reader(ReaderRegistry&);
[[nodiscard]] bool register_csv_reader(ReaderRegistry&);
[[nodiscard]] bool register_dbf_reader(ReaderRegistry&);
[[nodiscard]] bool register_rtf_reader(ReaderRegistry&);
[[nodiscard]] bool register_fb2_reader(ReaderRegistry&);
[[nodiscard]] bool register_doc_reader(ReaderRegistry&);
[[nodiscard]] bool register_hwp_reader(ReaderRegistry&);
[[nodiscard]] bool register_wordproc_reader(ReaderRegistry&);
[[nodiscard]] bool register_calc_reader(ReaderRegistry&);
[[nodiscard]] bool register_drawing_reader(ReaderRegistry&);
[[nodiscard]] bool register_keynote_reader(ReaderRegistry&);
[[nodiscard]] bool register_mail_reader(ReaderRegistry&);
[[nodiscard]] bool register_msg_reader(ReaderRegistry&);
[[nodiscard]] bool register_djvu_reader(ReaderRegistry&);
[[nodiscard]] bool register_chm_reader(ReaderRegistry&);
[[nodiscard]] bool register_pst_reader(ReaderRegistry&);
[[nodiscard]] bool register_archive_reader(ReaderRegistry&);

bool register_readers(ReaderRegistry& registry) {
  constexpr std::array all = {
      register_text_reader,
      register_json_reader,
      register_image_reader,
      register_pdf_reader,
      register_notebook_reader,
      register_audio_reader,
      register_docx_reader,
      register_odt_reader,
      register_xlsx_reader,
      register_xlsb_reader,
      register_ods_reader,
      register_xls_reader,
      register_html_reader,
      register_pptx_reader,
      register_odp_reader,
      register_ppt_reader,
      register_epub_reader,
      register_mobi_reader,
      register_csv_reader,
      register_dbf_reader,
      register_rtf_reader,
      register_fb2_reader,
      register_doc_reader,
      register_hwp_reader,
      register_wordproc_reader,
      register_calc_reader,
      register_drawing_reader,
      register_keynote_reader,
      register_mail_reader,
      register_msg_reader,
      register_djvu_reader,
      register_chm_reader,
      register_pst_reader,
      register_archive_reader,  // last: the zip-based readers' sniffers keep their packages
  };
  bool all_added = true;
  for (const auto add : all) all_added = add(registry) && all_added;  // each tried, whatever came before
  return all_added;
}

}  // namespace mcpread::readers
