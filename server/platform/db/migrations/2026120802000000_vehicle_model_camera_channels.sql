-- The camera channels' names of a vehicle model, one a line (channel 1 first), shown in the video
-- window of its vehicles; empty keeps the default names ("通道 N").
ALTER TABLE vehicle_model ADD COLUMN camera_channels text;
