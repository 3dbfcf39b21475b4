"""The stubs of the native module (``palace/_palace.pyi``) against the compiled module: every
function the one has, the other has, with the same parameters in the same order, of the same
kind, with the same defaults (pyo3 gives each function its ``__text_signature__``; a default it
cannot write there, such as a tuple, it writes ``...``, and the stub must then give one); and
the documented functions of ``palace`` against the native ones they call."""

import ast
import inspect
from pathlib import Path

import pytest

from palace import _palace

STUBS = Path(__file__).resolve().parents[1] / "palace" / "_palace.pyi"


def _stubbed():
    """Each function of the stubs: its name and its parameters as ``(name, default)``, the
    default ``inspect.Parameter.empty`` where there is none."""
    tree = ast.parse(STUBS.read_text())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            a = node.args
            assert not (a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs), node.name
            defaults = [inspect.Parameter.empty] * (len(a.args) - len(a.defaults))
            defaults += [ast.literal_eval(d) for d in a.defaults]
            out[node.name] = [(p.arg, d) for p, d in zip(a.args, defaults)]
    return out


STUBBED = _stubbed()
NATIVE = sorted(name for name, f in vars(_palace).items() if callable(f) and not name.startswith("_"))


def test_the_stubs_list_every_function_of_the_module():
    assert sorted(STUBBED) == NATIVE


@pytest.mark.parametrize("name", NATIVE)
def test_each_stub_has_the_native_signature(name):
    native = inspect.signature(getattr(_palace, name))
    got = []
    for p, (_, stub_default) in zip(native.parameters.values(), STUBBED[name] + [(None, None)] * 99):
        assert p.kind == inspect.Parameter.POSITIONAL_OR_KEYWORD, (name, p)
        unwritten = p.default is Ellipsis and stub_default is not inspect.Parameter.empty
        got.append((p.name, stub_default if unwritten else p.default))
    assert STUBBED[name] == got, f"{name}: the stub says {STUBBED[name]}, the module {got}"


@pytest.mark.parametrize("name", NATIVE)
def test_each_wrapper_takes_the_native_parameters(name):
    """``palace.<name>`` takes the native function's parameters, by the same names, in the
    same order, with the same defaults, but for ``progress`` (a bool there, the callback here)
    and the values the Python layer turns into the native forms (``survey``'s ``k``)."""
    import palace

    wrapper = inspect.signature(getattr(palace, name)).parameters
    native = inspect.signature(getattr(_palace, name)).parameters
    assert list(wrapper) == list(native), name
    for p, w in wrapper.items():
        n = native[p].default
        if p == "progress":
            assert w.default is False and n is None, name
        elif n is not Ellipsis and not (name == "survey" and p == "k"):
            assert w.default == n, (name, p, w.default, n)
