"""The shipped stubs (`_native.pyi`) name exactly what the runtime module holds, and the
package surface (`__all__`, `__version__`, `py.typed`) is what abi.md §3 and §7 promise."""

from __future__ import annotations

import ast
import importlib.metadata
import inspect
import tomllib
import types
from pathlib import Path

import pytest

import hookwire
from hookwire import _native

PACKAGE = Path(hookwire.__file__).parent
STUB = PACKAGE / "_native.pyi"
REPO = Path(__file__).resolve().parents[2]

# Attributes every module or class has, which no stub declares.
MODULE_NOISE = {"__name__", "__doc__", "__file__", "__loader__", "__package__", "__spec__", "__all__"}
CLASS_NOISE = {"__doc__", "__module__", "__dict__", "__weakref__", "__qualname__", "__firstlineno__",
               "__static_attributes__"}


def stub_tree() -> ast.Module:
    return ast.parse(STUB.read_text(encoding="utf-8"))


def declared(body: list[ast.stmt]) -> dict[str, ast.stmt]:
    names: dict[str, ast.stmt] = {}
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = node
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    names[t.id] = node
    return names


def test_the_stub_and_py_typed_ship_with_the_package() -> None:
    assert STUB.is_file()
    assert (PACKAGE / "py.typed").is_file()


def test_the_stub_names_exactly_the_public_names_of_the_module() -> None:
    in_stub = {n for n in declared(stub_tree().body) if not n.startswith("_") or n == "__version__"}
    at_runtime = {n for n in vars(_native) if n not in MODULE_NOISE and (not n.startswith("_") or n == "__version__")}
    assert in_stub == at_runtime


@pytest.mark.parametrize("name", ["Dispatcher", "CancelToken", "HookwireError", "ConfigError", "EventError"])
def test_each_stub_class_matches_the_runtime_class(name: str) -> None:
    node = declared(stub_tree().body)[name]
    assert isinstance(node, ast.ClassDef)
    cls = getattr(_native, name)
    assert isinstance(cls, type)

    stub_bases = [ast.unparse(b) for b in node.bases] or ["object"]
    assert [b.__name__ for b in cls.__bases__] == stub_bases

    members = declared(node.body)
    public_stub = {n for n in members if not n.startswith("_")}
    public_runtime = {n for n in vars(cls) if not n.startswith("_") and n not in CLASS_NOISE}
    assert public_stub == public_runtime

    for member, stub_node in members.items():
        # Dunders in the stub (__new__) must exist at runtime too.
        assert hasattr(cls, member), f"{name}.{member} is in the stub but not at runtime"
        if isinstance(stub_node, ast.FunctionDef) and not member.startswith("__"):
            check_signature(getattr(cls, member), stub_node, f"{name}.{member}")


def check_signature(runtime: object, stub: ast.FunctionDef, what: str) -> None:
    stub_params = [a.arg for a in stub.args.posonlyargs + stub.args.args + stub.args.kwonlyargs]
    if stub_params and stub_params[0] in ("self", "cls"):
        stub_params = stub_params[1:]
    signature = inspect.signature(runtime)  # bound methods and classmethods drop self/cls
    runtime_params = [p for p in signature.parameters if p not in ("self", "cls", "$self", "$cls")]
    assert runtime_params == stub_params, f"{what}: runtime {signature}, stub {stub_params}"


def test_the_constructor_takes_one_config_argument() -> None:
    signature = inspect.signature(_native.Dispatcher)
    assert list(signature.parameters) == ["config"]


def test_keyword_only_parameters_match_the_stub() -> None:
    stub = declared(declared(stub_tree().body)["Dispatcher"].body)["add_function_hook"]  # type: ignore[attr-defined]
    in_stub = [a.arg for a in stub.args.kwonlyargs]
    at_runtime = [p.name for p in inspect.signature(_native.Dispatcher.add_function_hook).parameters.values()
                  if p.kind is inspect.Parameter.KEYWORD_ONLY]
    assert in_stub == at_runtime == ["matcher", "timeout", "fail_closed", "name", "first"]


def test_from_file_is_a_classmethod_in_the_stub_and_at_runtime() -> None:
    node = declared(declared(stub_tree().body)["Dispatcher"].body)["from_file"]  # type: ignore[attr-defined]
    assert [ast.unparse(d) for d in node.decorator_list] == ["classmethod"]
    assert isinstance(inspect.getattr_static(_native.Dispatcher, "from_file"), classmethod | types.ClassMethodDescriptorType)


def test_the_package_exports_what_all_says() -> None:
    for name in hookwire.__all__:
        assert hasattr(hookwire, name), name
    assert issubclass(hookwire.Dispatcher, _native.Dispatcher)
    assert inspect.isfunction(hookwire.Dispatcher.fire_async)
    for name in ("HookwireError", "ConfigError", "EventError", "CancelToken"):
        assert getattr(hookwire, name) is getattr(_native, name)


def test_version_equals_the_crate_version() -> None:
    with open(REPO / "Cargo.toml", "rb") as f:
        cargo_version = tomllib.load(f)["workspace"]["package"]["version"]
    assert hookwire.__version__ == cargo_version
    assert _native.__version__ == cargo_version
    assert importlib.metadata.version("hookwire") == cargo_version
