"""Loading a forward model: ``--engine FILE.py:Class``, ``--engine FILE.py``, or the name of an
entry point of the group ``sunbot.forward_models``; its file's hash and its certificate.

A model file is imported once per content (a file edited between two loads is imported
again), under a private module name, so it needs no package and no install. What a run
records of the model it used (the transcript header's ``model``) is
:meth:`ModelIdentity.to_json`: where it came from, the class, the SHA-256 of its file and,
when ``sunbot certify`` passed that very file and this sunbot's signature on it verifies,
the certificate's figures (:mod:`sunbot.forward.certificate`). A certificate that does not
verify is said in one warning (once per file and process) and recorded as
``certificateRefused``; the model is then uncertified.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import logging
import random
import sys
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

from sunbot.forward.contract import missing_methods

#: The entry-point group of installed forward models (name -> a model class).
ENTRY_POINT_GROUP = "sunbot.forward_models"

_LOADED: dict[tuple[Path, str], ModuleType] = {}
#: The refusals already said in this process (a run may load its model more than once).
_SAID: set[str] = set()
log = logging.getLogger("sunbot.forward")


class ModelNotLoaded(ValueError):
    """The model cannot be loaded or built: the message is one line saying why."""


@dataclass(frozen=True)
class ModelIdentity:
    """What a run records of the forward model it used.

    Attributes:
        spec: the text it was named by (``models/maze.py:Maze``, an entry point's name).
        path: its file (``None`` when it has none, such as a class built in a notebook).
        name: the class's name.
        sha256: the hex SHA-256 of the file's bytes (``None`` without a file).
        certificate: the certificate of that file and class for this game, when ``sunbot
            certify`` wrote and signed one (:func:`sunbot.forward.certificate.find`), else
            ``None``.
        certificate_refused: the one line saying why the certificate beside the file was not
            honoured (not signed by this sunbot), else ``None``.
    """

    spec: str
    path: Path | None
    name: str
    sha256: str | None
    certificate: dict[str, Any] | None = None
    certificate_refused: str | None = None

    def to_json(self) -> dict[str, Any]:
        """``{spec, path, class, sha256, certified}``: ``certified`` is the certificate's
        summary (``game``, ``server``, ``seeds``, ``predictions``, ``at``), or ``None``;
        ``certificateRefused`` (the one line) is added when a certificate was refused."""
        cert = self.certificate
        summary = (
            {k: cert.get(k) for k in ("game", "server", "seeds", "policies", "predictions", "at")}
            if cert is not None
            else None
        )
        out: dict[str, Any] = {
            "spec": self.spec,
            "path": str(self.path) if self.path is not None else None,
            "class": self.name,
            "sha256": self.sha256,
            "certified": summary,
        }
        if self.certificate_refused is not None:
            out["certificateRefused"] = self.certificate_refused
        return out


@dataclass(frozen=True)
class LoadedModel:
    """A model class ready to build: :meth:`build` makes one instance per run."""

    factory: Any
    identity: ModelIdentity

    def build(self, rng: random.Random) -> Any:
        """An instance, built with ``rng`` when the constructor takes an argument.

        Raises:
            ModelNotLoaded: the constructor raised (one line naming the exception).
        """
        return build(self.factory, rng, self.identity.spec)


def file_hash(path: Path) -> str:
    """The hex SHA-256 of the file's bytes.

    Raises:
        OSError: the file cannot be read.
    """
    return hashlib.sha256(path.read_bytes()).hexdigest()


def is_file_spec(text: str) -> bool:
    """``True`` for ``path.py`` or ``path.py:Class``; anything else is an entry point name."""
    path, _, _ = text.partition(".py:")
    return text.endswith(".py") or (path != text and bool(path))


def _import(path: Path) -> tuple[ModuleType, str]:
    """The module of ``path`` (imported once per content) and the file's hash."""
    resolved = path.resolve()
    if not resolved.is_file():
        raise ModelNotLoaded(f"no model file {str(path)!r} (looked in {Path.cwd()})")
    try:
        source = resolved.read_bytes()
    except OSError as exc:
        raise ModelNotLoaded(f"cannot read {path}: {exc.strerror or exc}") from None
    digest = hashlib.sha256(source).hexdigest()
    key = (resolved, digest)
    if key in _LOADED:
        return _LOADED[key], digest
    name = f"sunbot_model_{resolved.stem}_{digest[:12]}"
    spec = importlib.util.spec_from_file_location(name, resolved)
    if spec is None or spec.loader is None:
        raise ModelNotLoaded(f"{str(path)!r} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look their module up here
    try:
        # the very bytes hashed are what runs: never a cached __pycache__ file (which a
        # certificate does not cover), nor a file changed between the hash and the import
        exec(compile(source, str(resolved), "exec", dont_inherit=True), module.__dict__)
    except Exception as exc:
        del sys.modules[name]
        raise ModelNotLoaded(f"{path} did not load: {type(exc).__name__}: {exc}") from exc
    _LOADED[key] = module
    return module, digest


def _pick_class(module: ModuleType, path: Path, attr: str | None) -> tuple[str, Any]:
    """The model's name in its file (the name a certificate is kept under: the module's
    attribute, not the class's own ``__name__``, which a class may set to another's) and
    the object."""
    if attr is not None:
        if not hasattr(module, attr):
            raise ModelNotLoaded(f"{path} has no {attr!r}")
        return attr, getattr(module, attr)
    found = [
        (key, obj)
        for key, obj in vars(module).items()
        if inspect.isclass(obj) and obj.__module__ == module.__name__ and not missing_methods(obj)
    ]
    if len(found) != 1:
        names = ", ".join(key for key, _ in found) or "none"
        raise ModelNotLoaded(
            f"{path}: name the model as {path}:ClassName (classes with the six methods of a"
            f" forward model: {names})"
        )
    return found[0]


def _check(obj: Any, game: str, spec: str) -> None:
    if not inspect.isclass(obj) and not callable(getattr(obj, "from_observation", None)):
        raise ModelNotLoaded(f"{spec} is not a forward model class")
    missing = missing_methods(obj)
    if missing:
        raise ModelNotLoaded(f"{spec} is no forward model: it has no {', '.join(missing)}")
    games = getattr(obj, "games", None) or (getattr(obj, "game", None),)
    if isinstance(games, str):
        games = (games,)
    if games != (None,) and game not in games and "*" not in games:
        raise ModelNotLoaded(f"{spec} models {', '.join(map(str, games))}, not {game}")


def _entry_point(name: str) -> tuple[Any, Path | None]:
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name == name:
            try:
                obj = ep.load()
            except Exception as exc:
                raise ModelNotLoaded(
                    f"forward model {name!r} ({ep.value}) did not load: {type(exc).__name__}: {exc}"
                ) from exc
            source = inspect.getsourcefile(obj) if inspect.isclass(obj) else None
            return obj, Path(source) if source else None
    known = sorted(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP))
    raise ModelNotLoaded(
        f"no forward model {name!r}: give FILE.py:Class, or an installed model's name"
        f" ({', '.join(known) or 'none installed'})"
    )


def load_model(spec: str, game: str, *, certificates: bool = True) -> LoadedModel:
    """The model ``spec`` names, checked to be a forward model of ``game`` (not built).

    Args:
        spec: ``FILE.py:Class``, ``FILE.py`` (its one class with the six methods), or the
            name of an installed entry point of :data:`ENTRY_POINT_GROUP`.
        game: the game's slug; a model that declares ``game``/``games`` must name it.
        certificates: look up the certificate of the file for ``game`` (one that does not
            verify is logged as a warning, once per file and process, and not honoured).

    Raises:
        ModelNotLoaded: no such file or entry point, it fails to import, it has no such
            class, the class lacks a method of the contract or names another game.
    """
    from sunbot.forward.certificate import find

    text = spec.strip()
    if not text:
        raise ModelNotLoaded("--engine: give FILE.py:Class or an installed model's name")
    digest: str | None
    if is_file_spec(text):
        if text.endswith(".py"):
            path, attr = Path(text), None
        else:
            raw, _, attr = text.rpartition(":")
            if not attr.isidentifier():
                raise ModelNotLoaded(f"{text!r}: after the ':' give a class name")
            path = Path(raw)
        module, digest = _import(path)
        name, obj = _pick_class(module, path, attr)
        where: Path | None = path
    else:
        obj, where = _entry_point(text)
        digest = file_hash(where) if where is not None and where.is_file() else None
        name = getattr(obj, "__name__", type(obj).__name__)
    _check(obj, game, text)
    cert = refused = None
    if certificates and where is not None:
        found = find(where, name, digest, game)
        cert, refused = found.entry, found.refused
        if refused is not None and refused not in _SAID:
            _SAID.add(refused)
            log.warning("%s", refused)
    return LoadedModel(obj, ModelIdentity(text, where, name, digest, cert, refused))


def _takes_an_argument(cls: Any) -> bool:
    try:
        params = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):
        return True
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return any(p.kind in kinds or p.kind is inspect.Parameter.VAR_POSITIONAL for p in params)


def build(factory: Any, rng: random.Random, label: str = "the model") -> Any:
    """An instance of the model class ``factory`` (``factory(rng)`` when its constructor
    takes an argument, else ``factory()``); an instance is returned as it is.

    Raises:
        ModelNotLoaded: the constructor raised, or the result lacks a method.
    """
    if not inspect.isclass(factory):
        return factory
    make: Any = factory
    try:
        model = make(rng) if _takes_an_argument(factory) else make()
    except Exception as exc:
        raise ModelNotLoaded(f"{label} could not be built: {type(exc).__name__}: {exc}") from exc
    missing = missing_methods(model)
    if missing:
        raise ModelNotLoaded(f"{label} is no forward model: it has no {', '.join(missing)}")
    return model


def identity_of(model: Any) -> ModelIdentity:
    """The identity of a model given as an object or class in Python (no file hash unless
    its class's source file can be found)."""
    cls = model if inspect.isclass(model) else type(model)
    try:
        source = inspect.getsourcefile(cls)
    except TypeError:
        source = None
    path = Path(source) if source else None
    digest = file_hash(path) if path is not None and path.is_file() else None
    return ModelIdentity(cls.__name__, path, cls.__name__, digest)


__all__ = [
    "ENTRY_POINT_GROUP",
    "LoadedModel",
    "ModelIdentity",
    "ModelNotLoaded",
    "build",
    "file_hash",
    "identity_of",
    "is_file_spec",
    "load_model",
]
