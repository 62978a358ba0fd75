# SPDX-License-Identifier: MIT
# Type stubs of the fairshuf package (PEP 561; py.typed marks the package).
from typing import Any, List, NamedTuple, Optional, Sequence, Tuple, TypeVar, Union, overload

_Buffer = Any  # any object with the buffer protocol, or a list
_Seed = Union[None, bytes, bytearray, memoryview, str, int]
_Size = Union[None, int, Tuple[int, ...]]
_T = TypeVar("_T")

__version__: str
__all__: List[str]

REACH_FULL: int
REACH_KEY_LARGE: int
REACH_KEY: int
REACH_DEFAULT: int
STREAM_V1: int
STREAM_V2: int
STREAM_V3: int
STREAM_LATEST: int

class ReachabilityError(ValueError): ...

class Generator:
    def __init__(self, seed: _Seed = ..., *, generator: Optional[str] = ..., simulation: bool = ...,
                 reach: Optional[int] = ..., stream_version: Optional[int] = ...) -> None: ...
    @property
    def stream_version(self) -> int: ...
    def shuffle(self, x: _Buffer, axis: int = ..., threads: Optional[int] = ...) -> None: ...
    @overload
    def permutation(self, x: int, axis: int = ...) -> Any: ...
    @overload
    def permutation(self, x: List[_T], axis: int = ...) -> List[_T]: ...
    @overload
    def permutation(self, x: Any, axis: int = ...) -> Any: ...
    def choice(self, a: Any, size: _Size = ..., replace: bool = ..., p: None = ...,
               axis: int = ..., shuffle: bool = ...) -> Any: ...
    def integers(self, low: int, high: Optional[int] = ..., size: _Size = ...,
                 dtype: Any = ..., endpoint: bool = ...) -> Any: ...
    def random_raw(self, size: _Size = ...) -> Any: ...
    def bytes(self, length: int) -> bytes: ...
    def deal(self, players: Optional[int] = ..., cards: Optional[int] = ..., *, decks: int = ...,
             jokers: int = ..., burn: int = ..., layout: str = ..., names: bool = ...,
             notation: str = ..., faces: Optional[Sequence[str]] = ...) -> List[Any]: ...

class FairRound(NamedTuple):
    commitment: str
    order: List[Any]
    nonce: int
    client_seed: bytes

def fair_commit(server_seed: bytes) -> str: ...
def fair_seed_min(decks: int = ..., jokers: int = ..., faces: Optional[Sequence[str]] = ...) -> int: ...
def fair_server_seed(decks: int = ..., jokers: int = ...,
                     faces: Optional[Sequence[str]] = ...) -> bytes: ...
def fair_order(server_seed: Union[bytes, str], client_seed: Union[bytes, str] = ..., nonce: int = ...,
               *, decks: int = ..., jokers: int = ..., faces: Optional[Sequence[str]] = ...,
               names: bool = ..., notation: str = ...) -> List[Any]: ...
def fair_round(server_seed: Union[bytes, str], client_seed: Union[bytes, str] = ..., nonce: int = ...,
               *, decks: int = ..., jokers: int = ..., faces: Optional[Sequence[str]] = ...,
               names: bool = ..., notation: str = ...) -> FairRound: ...
def fair_verify(server_seed: Union[bytes, str], commitment: str, order: Sequence[Any],
                client_seed: Union[bytes, str] = ..., nonce: int = ..., *, decks: int = ...,
                jokers: int = ..., faces: Optional[Sequence[str]] = ...,
                notation: str = ...) -> bool: ...
def card_names(jokers: int = ..., notation: str = ...,
               faces: Optional[Sequence[str]] = ...) -> List[str]: ...
def hw_entropy_available() -> bool: ...
