-- Terminal operations: attributes (0x8107), temporary tracking (0x8202), vehicle control (0x8500) and
-- terminal-side fences (0x8600–0x8607) are commands of their own.
ALTER TABLE terminal_command DROP CONSTRAINT terminal_command_kind_check;
ALTER TABLE terminal_command ADD CONSTRAINT terminal_command_kind_check
  CHECK (kind IN ('location', 'params', 'text', 'control', 'readParams', 'attributes', 'tracking', 'vehicleControl', 'fence'));
