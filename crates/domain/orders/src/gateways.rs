//! Ports to the outside systems checkout talks to: the payment provider, Discord and Roblox.
