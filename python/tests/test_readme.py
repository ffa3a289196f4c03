"""Every ```python block of python/README.md runs as written."""
import pathlib
import re

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def test_readme_examples_run():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert blocks, "README.md has no python examples"
    for block in blocks:
        exec(compile(block, str(README), "exec"), {})
