"""One build step beyond pyproject.toml: the wheel carries the suite's data (docs/install.md).

``python -m build`` makes the sdist from MANIFEST.in, which ships the repository's top-level
``scenarios/``, ``goldens/``, ``runners/`` and ``docs/`` as they are.  The wheel, built from
that sdist or from a checkout, has only the ``conformance`` package; this ``build_py`` copies the
manifest's files that ``shipped`` names into ``conformance/suite/``, keeping their paths, and lists
them in ``conformance/suite/FILES.txt`` (``conformance.shipped`` finds them there and says which
are gone).  An editable install needs no copy: the package finds the checkout above it.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SHIPPED = ("scenarios/", "goldens/", "runners/", "docs/census/census.json", "docs/mutation/equivalent.json",
           "docs/operators/equivalent.json")
"""What the installed package needs at run time beside its Python code (MANIFEST.in ships more)."""


def shipped(name: str) -> bool:
    """SHIPPED, and the documents a port author reads (``docs/*.md``: porting, protocol, spec
    notes, install and the rest), which the commands' messages point to."""
    return name.startswith(SHIPPED) or (name.startswith("docs/") and name.count("/") == 1 and name.endswith(".md"))


class BuildPyWithSuite(build_py):
    """build_py, then the shipped files into conformance/suite/ (not for an editable install)."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        self.run_command("egg_info")  # its file list is MANIFEST.in's, with the excludes applied
        listed = sorted(Path(name).as_posix() for name in self.get_finalized_command("egg_info").filelist.files)
        names = [name for name in listed if shipped(name)]
        target = Path(self.build_lib, "conformance", "suite")
        shutil.rmtree(target, ignore_errors=True)  # no file left over from an earlier build
        for name in names:
            self.mkpath(str((target / name).parent))
            self.copy_file(name, str(target / name), preserve_mode=False)
        (target / "FILES.txt").write_text("".join(name + "\n" for name in names), encoding="utf-8")


setup(cmdclass={"build_py": BuildPyWithSuite})
