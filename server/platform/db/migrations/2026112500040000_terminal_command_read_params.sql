-- Reading a terminal's parameters back (0x8104 / 0x8106, answered by 0x0104) is a command of its own.
ALTER TABLE terminal_command DROP CONSTRAINT terminal_command_kind_check;
ALTER TABLE terminal_command ADD CONSTRAINT terminal_command_kind_check CHECK (kind IN ('location', 'params', 'text', 'control', 'readParams'));
