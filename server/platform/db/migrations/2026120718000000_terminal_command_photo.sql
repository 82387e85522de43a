-- Take photo (0x8801, answered 0x0805 with the photos' media ids) is a command of its own.
ALTER TABLE terminal_command DROP CONSTRAINT terminal_command_kind_check;
ALTER TABLE terminal_command ADD CONSTRAINT terminal_command_kind_check
  CHECK (kind IN ('location', 'params', 'text', 'control', 'readParams', 'attributes', 'tracking', 'vehicleControl', 'fence', 'upgrade', 'photo'));
