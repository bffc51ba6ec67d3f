"""Chat-model backends behind one async protocol (see `lycan.models.base`)."""

from lycan.models.base import ChatModel, ChatRequest, ChatResult, Message, ModelError, Usage

__all__ = ["ChatModel", "ChatRequest", "ChatResult", "Message", "ModelError", "Usage"]
