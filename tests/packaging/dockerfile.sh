#!/usr/bin/env bash
# The Dockerfile against the lists it must share: its build stage gets its packages from
# scripts/install-deps.sh, and its runtime stage installs packaging/runtime-packages.txt, the
# list the .deb depends on. (No container engine is needed: the file is read, not built.)
# Usage: dockerfile.sh BUILD_DIR
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# The stages, one instruction per line (continuations joined, comments dropped).
instructions=$(sed -e '/^[[:space:]]*#/d' "$source_dir/Dockerfile" |
  sed -e ':a' -e '/\\$/N; s/\\\n/ /; ta')
stages=$(grep -c '^FROM ' <<<"$instructions" || true)
stage() { awk -v n="$1" '/^FROM / {i++} i == n' <<<"$instructions"; }
build_stage=$(stage 1)
runtime_stage=$(stage "$stages")
((stages >= 2)) || fail "the Dockerfile should have a build stage and a runtime stage"

# Build stage: the packages come from scripts/install-deps.sh, not from a second list.
if grep -q '^RUN .*scripts/install-deps\.sh' <<<"$build_stage" &&
  ! grep -q 'apt-get install' <<<"$build_stage"; then
  ok "the build stage installs its packages with scripts/install-deps.sh"
else
  fail "the Dockerfile's build stage should run scripts/install-deps.sh and install nothing else"
fi
if grep -q 'MCPREAD_STATIC_LIBS=OFF' <<<"$build_stage"; then
  fail "the image must link the third-party libraries statically: runtime-packages.txt assumes so"
fi

# Runtime stage: one apt-get install, of the words a command substitution reads from the copied
# runtime-packages.txt. That command is run here on the repository's file: it must give exactly
# the list, and no package may be named beside it.
copy_to=$(awk '/^COPY / && / packaging\/runtime-packages\.txt / {print $NF}' <<<"$runtime_stage")
# The recommended packages (OCR language data) come in the same COPY and the same install.
recommended_to=$(awk '/^COPY / && / packaging\/recommended-packages\.txt / {print $NF}' <<<"$runtime_stage")
[[ $recommended_to == */ ]] && recommended_to+="recommended-packages.txt"
recommended=$(package_list "$source_dir/packaging/recommended-packages.txt")
install_run=$(grep 'apt-get install' <<<"$runtime_stage" || true)
if [[ -z $copy_to || -z $install_run || $(wc -l <<<"$install_run") -ne 1 ]]; then
  fail "the Dockerfile's runtime stage should COPY packaging/runtime-packages.txt and" \
    "install from it with one apt-get install"
  finish
fi
[[ $copy_to == */ ]] && copy_to+="runtime-packages.txt"
install_args=$(sed -e 's/.*apt-get install//' -e 's/&&.*//' -e 's/;.*//' <<<"$install_run")
lister=$(sed -n 's/.*\$(\([^)]*\)).*/\1/p' <<<"$install_args")
literal=$(sed -e 's/\$([^)]*)//g' <<<"$install_args" | tr ' ' '\n' |
  grep -v -e '^-' -e '^$' || true)
if [[ -n $literal ]]; then
  fail "the Dockerfile's runtime stage names packages itself: $(words "$literal")"
fi
if [[ $lister != *"$copy_to"* ]]; then
  fail "the Dockerfile's apt-get install does not read $copy_to"
else
  command=${lister//"$copy_to"/"$source_dir/packaging/runtime-packages.txt"}
  [[ -n $recommended_to ]] && command=${command//"$recommended_to"/"$source_dir/packaging/recommended-packages.txt"}
  from_image=$(sh -c "$command" | tr -s ' \t' '\n' | grep -v '^$' | sort -u)
  expected=$(printf '%s\n%s\n' "$shipped" "$recommended" | grep -v '^$' | sort -u)
  if [[ $from_image == "$expected" ]]; then
    ok "the runtime stage installs packaging/runtime-packages.txt and recommended-packages.txt: $(words "$from_image")"
  else
    fail "the image would install '$(words "$from_image")', not '$(words "$expected")'"
  fi
fi
# The image links statically, so a static build's .deb must depend on the same list.
if [[ $(layout static_libs) == 1 && $runtime != "$shipped" ]]; then
  fail "this build's Depends '$(words "$runtime")' differ from the image's '$(words "$shipped")'"
fi
finish
