# Sourced by the checks that run an installed mcp-read: read_pdf_with EXE PLUGIN LABEL reads a
# one-page PDF over stdio and checks that the answer carries its text and that the plugin loaded
# is PLUGIN, the one of the same tree (no MCP_READ_PDF_PLUGIN_DIR to point elsewhere).

pdf_text="Installed tree reads PDFs"
write_pdf() {
  local stream="BT /F1 24 Tf 72 720 Td ($pdf_text) Tj ET" body offsets=() i o
  local objects=(
    "<< /Type /Catalog /Pages 2 0 R >>"
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R
   /Resources << /Font << /F1 5 0 R >> >> >>"
    "<< /Length ${#stream} >>"$'\n'"stream"$'\n'"$stream"$'\n'"endstream"
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
  body="%PDF-1.4"$'\n'
  for i in "${!objects[@]}"; do  # LC_ALL=C: ${#body} counts bytes, as the offsets must
    offsets+=("${#body}")
    body+="$((i + 1)) 0 obj"$'\n'"${objects[i]}"$'\n'"endobj"$'\n'
  done
  local xref=${#body}
  body+="xref"$'\n'"0 $((${#objects[@]} + 1))"$'\n'"0000000000 65535 f "$'\n'
  for o in "${offsets[@]}"; do body+="$(printf '%010d' "$o") 00000 n "$'\n'; done
  body+="trailer"$'\n'"<< /Size $((${#objects[@]} + 1)) /Root 1 0 R >>"$'\n'
  body+="startxref"$'\n'"$xref"$'\n'"%%EOF"$'\n'
  printf '%s' "$body" >"$1"
}
mkdir -p "$work/data"
write_pdf "$work/data/sample.pdf"

read_pdf_with() {
  local exe=$1 expected_plugin=$2 label=$3 out answer loaded
  local initialize='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":
"2025-06-18","capabilities":{},"clientInfo":{"name":"packaging-check","version":"1"}}}'
  local call='{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read","arguments":
{"file_path":"'"$work/data/sample.pdf"'"}}}'
  # LD_DEBUG=files makes the dynamic loader log every library it opens, and from where.
  local initialized='{"jsonrpc":"2.0","method":"notifications/initialized"}'
  out=$(printf '%s\n' "${initialize//$'\n'/}" "$initialized" "${call//$'\n'/}" |
    env -u MCP_READ_PDF_PLUGIN_DIR LD_DEBUG=files timeout 60 "$exe" --roots-wait-ms 0 "$work/data" \
      2>"$work/stderr") || true
  answer=$(grep '"id":2' <<<"$out" || true)
  if [[ $answer != *"$pdf_text"* || $answer == *'"isError":true'* ]]; then
    fail "$label: reading a PDF failed: ${answer:-no answer}" \
      "$(grep -v 'file=\|^ *[0-9]*:[[:space:]]*$' "$work/stderr" | tail -n 5)"
    return
  fi
  # Each candidate tried is logged; "generating link map" follows the one that opened.
  loaded=$(sed -n 's/.*file=\([^ ]*libmcpread_pdf\.so\) \[0\];  generating link map.*/\1/p' \
    "$work/stderr" | head -n1)
  if [[ -n $loaded && $(readlink -f "$loaded") == "$(readlink -f "$expected_plugin")" ]]; then
    ok "$label: reads a PDF with the plugin of its own tree ($loaded)"
  else
    fail "$label: read the PDF with '${loaded:-an unknown plugin}', not $expected_plugin"
  fi
}
