"""Debian packages (and a few npm packages, "npm:NAME@VERSION") fetched by name and unpacked into
a cache, never installed.

Each package lands in <cache>/<package>_<version>/ (the candidate version apt would install);
a directory that exists there is reused as it is, so a second run downloads nothing.
"""
import base64
import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import urllib.request


# The package name of rows whose files are in this source tree (tests/data/): formats no Debian
# package ships a sample of, each sample's origin and licence said beside it.
SOURCE_TREE = "mcp-read"

# npm packages rows may name ("npm:NAME@VERSION": formats no Debian package ships a sample of), each
# tarball's sha512 pinned as the registry's dist.integrity gives it: a changed tarball fails the run.
NPM_INTEGRITY = {
    "node-hwp@0.1.0-alpha":
        "sha512-/gbF+eR76fRwwyasS1VFyWPjqSnB1GQYkiI4vbg++/ICmyh+UorbpZ5pdtsvdvrou0DESNbYRa/QiTT2Ynk4og==",
}


def cache_root():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "mcp-read-corpus")


class Fetcher:
    def __init__(self, log):
        self.log = log
        self.updated = False
        self.downloaded_bytes = 0  # .deb bytes downloaded by this run
        self.cached_bytes = 0  # .deb bytes of packages found in the cache
        self.deb_src_checked = False
        os.makedirs(cache_root(), exist_ok=True)

    def _privileged(self, command):
        """`command` as root: run as it is when this is root, else through `sudo -n`."""
        if os.geteuid() != 0 and shutil.which("sudo"):
            return ["sudo", "-n"] + command
        return command

    def _ensure_deb_src(self):
        """A deb-src entry for the suite this machine installs from, added when apt has none (a
        fresh machine or container has only deb lines): src:NAME rows need the Sources index.
        The entry mirrors the machine's deb entries of that suite (same archive, same components),
        written to <sourceparts>/mcp-read-corpus-src.sources; then the lists are updated."""
        if self.deb_src_checked:
            return
        self.deb_src_checked = True
        targets = subprocess.run(["apt-get", "indextargets", "--format",
                                  "$(TARGET_OF) $(REPO_URI) $(RELEASE) $(COMPONENT)"],
                                 capture_output=True, text=True, check=False).stdout.split("\n")
        entries = [line.split() for line in targets if len(line.split()) == 4]
        if any(kind == "deb-src" for kind, *_ in entries):
            return
        codename = ""
        with open("/etc/os-release", encoding="utf-8") as f:
            for line in f:
                if line.startswith("VERSION_CODENAME="):
                    codename = line.split("=", 1)[1].strip().strip('"')
        ours = [(uri, component) for kind, uri, release, component in entries
                if kind == "deb" and release == codename]
        if not ours:
            raise RuntimeError(f"apt has no deb-src entry and no deb entry for {codename or 'this suite'} "
                               "to copy one from: add a deb-src line for the source packages")
        uri = ours[0][0]
        components = sorted({component for u, component in ours if u == uri})
        entry = f"Types: deb-src\nURIs: {uri}\nSuites: {codename}\nComponents: {' '.join(components)}\n"
        keyring = "/usr/share/keyrings/debian-archive-keyring.gpg"
        if "debian.org" in uri and os.path.exists(keyring):
            entry += f"Signed-By: {keyring}\n"
        parts = subprocess.run(["apt-config", "shell", "PARTS", "Dir::Etc::sourceparts/d"],
                               capture_output=True, text=True, check=False).stdout
        parts = parts.strip().split("=", 1)[-1].strip("'") or "/etc/apt/sources.list.d/"
        path = os.path.join(parts, "mcp-read-corpus-src.sources")
        self.log(f"corpus: adding {path} (deb-src {uri} {codename}) for the source packages")
        done = subprocess.run(self._privileged(["tee", path]), input=entry, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"cannot write {path} (run as root, or with sudo): {done.stderr.strip()}")
        self.updated = False  # the new entry's index is fetched now, even if an update ran
        self._apt_update()

    def _apt_update(self):
        # Lists may be missing on a fresh machine or container: fetch them once per run.
        if self.updated:
            return
        self.updated = True
        command = self._privileged(["apt-get", "update", "-qq"])
        self.log("corpus: apt-get update")
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)

    def _version(self, package):
        # "src:NAME": a source package (apt-cache showsrc; its test documents are what some
        # formats have nowhere else in Debian). It needs a deb-src entry in apt's sources.
        if package.startswith("src:"):
            self._ensure_deb_src()
        query = ["apt-cache", "showsrc", "--only-source", package[4:]] if package.startswith("src:") else \
            ["apt-cache", "show", "--no-all-versions", package]
        for attempt in range(2):
            out = subprocess.run(query,
                                 capture_output=True, text=True, check=False).stdout
            fields = dict(line.split(": ", 1) for line in out.splitlines() if ": " in line)
            if "Version" in fields:
                return fields["Version"], int(fields.get("Size", "0"))
            if attempt == 0:
                self._apt_update()
        raise RuntimeError(f"apt knows no package {package} (apt-cache show found nothing)")

    def unpack(self, package):
        """Returns the directory holding the package's files; raises RuntimeError with the cause."""
        if package == SOURCE_TREE:
            return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        if package.startswith("npm:"):
            return self._unpack_npm(package[4:])
        for attempt in range(2):
            version, size = self._version(package)
            target = os.path.join(cache_root(), f"{package}_{version.replace(':', '%3a')}")
            if os.path.isdir(target):
                self.cached_bytes += size
                return target
            try:
                return self._download(package, version, target)
            except RuntimeError:
                # Stale lists name a version the mirror no longer has: update, ask again.
                if attempt == 1 or self.updated:
                    raise
                self._apt_update()
        raise AssertionError("unreachable")

    def _download(self, package, version, target):
        if package.startswith("src:"):
            return self._download_source(package[4:], version, target)
        with tempfile.TemporaryDirectory(dir=cache_root(), prefix=".download-") as work:
            done = subprocess.run(["apt-get", "download", f"{package}={version}"], cwd=work,
                                  capture_output=True, text=True, check=False)
            if done.returncode != 0:
                error = (done.stderr.strip().splitlines() or ["no output"])[-1]
                raise RuntimeError(f"apt-get download {package}={version} failed: {error}")
            debs = [name for name in os.listdir(work) if name.endswith(".deb")]
            if len(debs) != 1:
                raise RuntimeError(f"apt-get download {package} left {len(debs)} .deb files")
            deb = os.path.join(work, debs[0])
            self.downloaded_bytes += os.path.getsize(deb)
            tree = os.path.join(work, "tree")
            done = subprocess.run(["dpkg-deb", "-x", deb, tree], capture_output=True, text=True,
                                  check=False)
            if done.returncode != 0:
                raise RuntimeError(f"dpkg-deb -x {debs[0]} failed: {done.stderr.strip()}")
            # Renamed only once complete: an interrupted run never leaves a half tree to reuse.
            os.rename(tree, target)
        return target

    def _download_source(self, package, version, target):
        """The source package unpacked (apt-get source --download-only, then dpkg-source -x)."""
        with tempfile.TemporaryDirectory(dir=cache_root(), prefix=".download-") as work:
            done = subprocess.run(["apt-get", "source", "--download-only", "-qq", f"{package}={version}"],
                                  cwd=work, capture_output=True, text=True, check=False)
            origs = [name for name in os.listdir(work) if ".orig.tar." in name]
            if done.returncode != 0 and len(origs) == 1:
                # A mirror that lacks the Debian part (debian.tar.xz) still served the upstream
                # tarball, which holds the test files rows name: unpacked as dpkg-source would.
                return self._unpack_orig(os.path.join(work, origs[0]), target)
            if done.returncode != 0:
                error = (done.stderr.strip().splitlines() or ["no output"])[-1]
                raise RuntimeError(f"apt-get source {package}={version} failed (is there a deb-src line?): {error}")
            dscs = [name for name in os.listdir(work) if name.endswith(".dsc")]
            if len(dscs) != 1:
                raise RuntimeError(f"apt-get source {package} left {len(dscs)} .dsc files")
            self.downloaded_bytes += sum(os.path.getsize(os.path.join(work, n)) for n in os.listdir(work))
            tree = os.path.join(work, "tree")
            done = subprocess.run(["dpkg-source", "--no-check", "-x", dscs[0], tree], cwd=work,
                                  capture_output=True, text=True, check=False)
            if done.returncode != 0:
                raise RuntimeError(f"dpkg-source -x {dscs[0]} failed: {done.stderr.strip()}")
            os.rename(tree, target)
        return target

    def _unpack_orig(self, orig, target):
        """The upstream tarball unpacked without its top directory, as the source tree's root."""
        self.downloaded_bytes += os.path.getsize(orig)
        tree = os.path.join(os.path.dirname(orig), "tree")
        os.makedirs(tree)
        done = subprocess.run(["tar", "-xf", orig, "-C", tree, "--strip-components=1"], capture_output=True,
                              text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"tar -xf {os.path.basename(orig)} failed: {done.stderr.strip()}")
        os.rename(tree, target)
        return target

    def _unpack_npm(self, spec):
        """The npm package's tarball from registry.npmjs.org, its sha512 checked against
        NPM_INTEGRITY, unpacked as it is (its files under package/)."""
        name, _, version = spec.rpartition("@")
        pinned = NPM_INTEGRITY.get(spec)
        if not name or pinned is None:
            raise RuntimeError(f"npm:{spec} has no pinned sha512 in fetch.py's NPM_INTEGRITY")
        target = os.path.join(cache_root(), f"npm_{name.replace('/', '%2f')}_{version}")
        if os.path.isdir(target):
            return target
        try:
            with urllib.request.urlopen(f"https://registry.npmjs.org/{name}/{version}", timeout=60) as answer:
                dist = json.load(answer)["dist"]
            if dist.get("integrity") != pinned:
                raise RuntimeError(f"the registry's integrity of npm:{spec} is {dist.get('integrity')}, not the pinned one")
            with urllib.request.urlopen(dist["tarball"], timeout=120) as answer:
                tarball = answer.read()
        except OSError as error:
            raise RuntimeError(f"cannot fetch npm:{spec} from registry.npmjs.org: {error}") from error
        got = "sha512-" + base64.b64encode(hashlib.sha512(tarball).digest()).decode()
        if got != pinned:
            raise RuntimeError(f"npm:{spec}'s tarball has {got}, not the pinned sha512")
        self.downloaded_bytes += len(tarball)
        with tempfile.TemporaryDirectory(dir=cache_root(), prefix=".download-") as work:
            path = os.path.join(work, "package.tgz")
            with open(path, "wb") as f:
                f.write(tarball)
            tree = os.path.join(work, "tree")
            with tarfile.open(path) as archive:
                members = [m for m in archive.getmembers() if (m.isfile() or m.isdir())
                           and not m.name.startswith("/") and ".." not in m.name.split("/")]
                archive.extractall(tree, members=members)
            os.rename(tree, target)
        return target
