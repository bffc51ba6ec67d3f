"""Training: above the agents, since it plays games with them.

- `selfplay`: self-play games and decision samples of rule-based agents, the held-out split;
- `value`: training the Deep Wolf value network (PyTorch) and its metrics;
- `onnx_export`: the trained network as ONNX for play;
- `pipeline`: from games to a playable network folder (`lycan train value CONFIG`).

What agents load at play time (the shipped network and candidates) lives below, in
`lycan.value.shipped`, with no import from here. CaM-Wolf's causal training (`lycan.causal`) sits
at this layer too.
"""
