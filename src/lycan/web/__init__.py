"""A browser table where people and AI players play together (needs the `web` extra).

`create_app(store_path, tts=None, asr=None, model_spec=None)` gives the FastAPI app that
`lycan serve` runs: a lobby to create tables, one private link per person's seat, a spectator
link, live talk (AI speech streamed as it is spoken), optional voices and push-to-talk, and a
full reveal and replay when the game ends.
"""

from lycan.web.app import create_app
from lycan.web.audio import SpeechRecognizer, SpeechSynthesizer, SpokenClip
from lycan.web.lobby import TableError, TableRequest
from lycan.web.table import WebTable

__all__ = [
    "SpeechRecognizer",
    "SpeechSynthesizer",
    "SpokenClip",
    "TableError",
    "TableRequest",
    "WebTable",
    "create_app",
]
