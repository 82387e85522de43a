-- Query indexes of the business entities (derived by generators/lib/indexSql.ts from their schemas),
-- and of the columns they added to earlier entities; statements already applied are no-ops.
-- apiUser
CREATE INDEX IF NOT EXISTS api_user_keyword_trgm ON api_user USING gin ((coalesce(name, '') || E'\x1f' || coalesce(app_key, '') || E'\x1f' || coalesce(contact, '')) gin_trgm_ops);
CREATE INDEX IF NOT EXISTS api_user_name_trgm ON api_user USING gin (name gin_trgm_ops);
CREATE INDEX IF NOT EXISTS api_user_app_key_trgm ON api_user USING gin (app_key gin_trgm_ops);
CREATE INDEX IF NOT EXISTS api_user_created_at_sort ON api_user (created_at, id);
CREATE INDEX IF NOT EXISTS api_user_updated_at_sort ON api_user (updated_at, id);
CREATE INDEX IF NOT EXISTS api_user_name_sort ON api_user (name, id);
CREATE INDEX IF NOT EXISTS api_user_app_key_sort ON api_user (app_key, id);
CREATE INDEX IF NOT EXISTS api_user_expire_date_sort ON api_user (expire_date, id);
-- businessInfo
CREATE INDEX IF NOT EXISTS business_info_keyword_trgm ON business_info USING gin ((coalesce(company_name, '') || E'\x1f' || coalesce(credit_code, '') || E'\x1f' || coalesce(legal_person, '')) gin_trgm_ops);
CREATE INDEX IF NOT EXISTS business_info_company_name_trgm ON business_info USING gin (company_name gin_trgm_ops);
CREATE INDEX IF NOT EXISTS business_info_credit_code_trgm ON business_info USING gin (credit_code gin_trgm_ops);
CREATE INDEX IF NOT EXISTS business_info_created_at_sort ON business_info (created_at, id);
CREATE INDEX IF NOT EXISTS business_info_updated_at_sort ON business_info (updated_at, id);
CREATE INDEX IF NOT EXISTS business_info_company_name_sort ON business_info (company_name, id);
CREATE INDEX IF NOT EXISTS business_info_license_expire_sort ON business_info (license_expire, id);
-- configParseFile
CREATE INDEX IF NOT EXISTS config_parse_file_keyword_trgm ON config_parse_file USING gin ((coalesce(name, '') || E'\x1f' || coalesce(file_name, '')) gin_trgm_ops);
CREATE INDEX IF NOT EXISTS config_parse_file_name_trgm ON config_parse_file USING gin (name gin_trgm_ops);
CREATE INDEX IF NOT EXISTS config_parse_file_created_at_sort ON config_parse_file (created_at, id);
CREATE INDEX IF NOT EXISTS config_parse_file_updated_at_sort ON config_parse_file (updated_at, id);
CREATE INDEX IF NOT EXISTS config_parse_file_name_sort ON config_parse_file (name, id);
CREATE INDEX IF NOT EXISTS config_parse_file_enabled_sort ON config_parse_file (enabled, id);
CREATE INDEX IF NOT EXISTS config_parse_file_latest_operated_at_sort ON config_parse_file (latest_operated_at, id);
-- driver
CREATE INDEX IF NOT EXISTS driver_keyword_trgm ON driver USING gin ((coalesce(name, '') || E'\x1f' || coalesce(mobile, '') || E'\x1f' || coalesce(license_no, '')) gin_trgm_ops);
CREATE INDEX IF NOT EXISTS driver_name_trgm ON driver USING gin (name gin_trgm_ops);
CREATE INDEX IF NOT EXISTS driver_mobile_trgm ON driver USING gin (mobile gin_trgm_ops);
CREATE INDEX IF NOT EXISTS driver_license_no_trgm ON driver USING gin (license_no gin_trgm_ops);
CREATE INDEX IF NOT EXISTS driver_created_at_sort ON driver (created_at, id);
CREATE INDEX IF NOT EXISTS driver_updated_at_sort ON driver (updated_at, id);
CREATE INDEX IF NOT EXISTS driver_name_sort ON driver (name, id);
CREATE INDEX IF NOT EXISTS driver_mobile_sort ON driver (mobile, id);
CREATE INDEX IF NOT EXISTS driver_license_expire_sort ON driver (license_expire, id);
CREATE INDEX IF NOT EXISTS driver_hire_date_sort ON driver (hire_date, id);
-- endorsement
CREATE INDEX IF NOT EXISTS endorsement_keyword_trgm ON endorsement USING gin ((coalesce(policy_no, '') || E'\x1f' || coalesce(endorsement_no, '') || E'\x1f' || coalesce(insurer, '')) gin_trgm_ops);
CREATE INDEX IF NOT EXISTS endorsement_insurer_trgm ON endorsement USING gin (insurer gin_trgm_ops);
CREATE INDEX IF NOT EXISTS endorsement_policy_no_trgm ON endorsement USING gin (policy_no gin_trgm_ops);
CREATE INDEX IF NOT EXISTS endorsement_endorsement_no_trgm ON endorsement USING gin (endorsement_no gin_trgm_ops);
CREATE INDEX IF NOT EXISTS vehicle_licence_trgm ON vehicle USING gin (licence gin_trgm_ops);
CREATE INDEX IF NOT EXISTS endorsement_created_at_sort ON endorsement (created_at, id);
CREATE INDEX IF NOT EXISTS endorsement_updated_at_sort ON endorsement (updated_at, id);
CREATE INDEX IF NOT EXISTS endorsement_policy_no_sort ON endorsement (policy_no, id);
CREATE INDEX IF NOT EXISTS endorsement_endorsement_no_sort ON endorsement (endorsement_no, id);
CREATE INDEX IF NOT EXISTS endorsement_effective_date_sort ON endorsement (effective_date, id);
-- expertFault
CREATE INDEX IF NOT EXISTS expert_fault_keyword_trgm ON expert_fault USING gin ((coalesce(name, '') || E'\x1f' || coalesce(description, '')) gin_trgm_ops);
CREATE INDEX IF NOT EXISTS expert_fault_name_trgm ON expert_fault USING gin (name gin_trgm_ops);
CREATE INDEX IF NOT EXISTS expert_fault_created_at_sort ON expert_fault (created_at, id);
CREATE INDEX IF NOT EXISTS expert_fault_updated_at_sort ON expert_fault (updated_at, id);
CREATE INDEX IF NOT EXISTS expert_fault_spn_sort ON expert_fault (spn, id);
CREATE INDEX IF NOT EXISTS expert_fault_fmi_sort ON expert_fault (fmi, id);
CREATE INDEX IF NOT EXISTS expert_fault_name_sort ON expert_fault (name, id);
CREATE INDEX IF NOT EXISTS expert_fault_level_sort ON expert_fault (level, id);
-- feedback
CREATE INDEX IF NOT EXISTS feedback_keyword_trgm ON feedback USING gin ((coalesce(title, '') || E'\x1f' || coalesce(content, '') || E'\x1f' || coalesce(contact, '')) gin_trgm_ops);
CREATE INDEX IF NOT EXISTS feedback_title_trgm ON feedback USING gin (title gin_trgm_ops);
CREATE INDEX IF NOT EXISTS feedback_created_at_sort ON feedback (created_at, id);
CREATE INDEX IF NOT EXISTS feedback_updated_at_sort ON feedback (updated_at, id);
CREATE INDEX IF NOT EXISTS feedback_title_sort ON feedback (title, id);
CREATE INDEX IF NOT EXISTS feedback_status_sort ON feedback (status, id);
-- fence
CREATE INDEX IF NOT EXISTS fence_name_trgm ON fence USING gin (name gin_trgm_ops);
CREATE INDEX IF NOT EXISTS fence_created_at_sort ON fence (created_at, id);
CREATE INDEX IF NOT EXISTS fence_updated_at_sort ON fence (updated_at, id);
CREATE INDEX IF NOT EXISTS fence_name_sort ON fence (name, id);
CREATE INDEX IF NOT EXISTS fence_status_sort ON fence (status, id);
-- fuelType
CREATE INDEX IF NOT EXISTS fuel_type_name_trgm ON fuel_type USING gin (name gin_trgm_ops);
CREATE INDEX IF NOT EXISTS fuel_type_created_at_sort ON fuel_type (created_at, id);
CREATE INDEX IF NOT EXISTS fuel_type_updated_at_sort ON fuel_type (updated_at, id);
CREATE INDEX IF NOT EXISTS fuel_type_name_sort ON fuel_type (name, id);
CREATE INDEX IF NOT EXISTS fuel_type_category_sort ON fuel_type (category, id);
CREATE INDEX IF NOT EXISTS fuel_type_price_sort ON fuel_type (price, id);
CREATE INDEX IF NOT EXISTS fuel_type_enabled_sort ON fuel_type (enabled, id);
-- interMember
CREATE INDEX IF NOT EXISTS inter_member_keyword_trgm ON inter_member USING gin ((coalesce(name, '') || E'\x1f' || coalesce(email, '') || E'\x1f' || coalesce(mobile, '')) gin_trgm_ops);
CREATE INDEX IF NOT EXISTS inter_member_name_trgm ON inter_member USING gin (name gin_trgm_ops);
CREATE INDEX IF NOT EXISTS inter_member_email_trgm ON inter_member USING gin (email gin_trgm_ops);
CREATE INDEX IF NOT EXISTS inter_member_mobile_trgm ON inter_member USING gin (mobile gin_trgm_ops);
CREATE INDEX IF NOT EXISTS inter_member_created_at_sort ON inter_member (created_at, id);
CREATE INDEX IF NOT EXISTS inter_member_updated_at_sort ON inter_member (updated_at, id);
CREATE INDEX IF NOT EXISTS inter_member_name_sort ON inter_member (name, id);
CREATE INDEX IF NOT EXISTS inter_member_email_sort ON inter_member (email, id);
CREATE INDEX IF NOT EXISTS inter_member_country_sort ON inter_member (country, id);
CREATE INDEX IF NOT EXISTS inter_member_expire_date_sort ON inter_member (expire_date, id);
-- merchant
CREATE INDEX IF NOT EXISTS merchant_keyword_trgm ON merchant USING gin ((coalesce(name, '') || E'\x1f' || coalesce(contact, '') || E'\x1f' || coalesce(phone, '')) gin_trgm_ops);
CREATE INDEX IF NOT EXISTS merchant_name_trgm ON merchant USING gin (name gin_trgm_ops);
CREATE INDEX IF NOT EXISTS merchant_created_at_sort ON merchant (created_at, id);
CREATE INDEX IF NOT EXISTS merchant_updated_at_sort ON merchant (updated_at, id);
CREATE INDEX IF NOT EXISTS merchant_name_sort ON merchant (name, id);
-- notice
CREATE INDEX IF NOT EXISTS notice_keyword_trgm ON notice USING gin ((coalesce(title, '') || E'\x1f' || coalesce(content, '')) gin_trgm_ops);
CREATE INDEX IF NOT EXISTS notice_title_trgm ON notice USING gin (title gin_trgm_ops);
CREATE INDEX IF NOT EXISTS notice_created_at_sort ON notice (created_at, id);
CREATE INDEX IF NOT EXISTS notice_updated_at_sort ON notice (updated_at, id);
CREATE INDEX IF NOT EXISTS notice_title_sort ON notice (title, id);
CREATE INDEX IF NOT EXISTS notice_level_sort ON notice (level, id);
CREATE INDEX IF NOT EXISTS notice_publish_at_sort ON notice (publish_at, id);
CREATE INDEX IF NOT EXISTS notice_expire_at_sort ON notice (expire_at, id);
-- notify
CREATE INDEX IF NOT EXISTS notify_keyword_trgm ON notify USING gin ((coalesce(name, '') || E'\x1f' || coalesce(receivers, '')) gin_trgm_ops);
CREATE INDEX IF NOT EXISTS notify_name_trgm ON notify USING gin (name gin_trgm_ops);
CREATE INDEX IF NOT EXISTS notify_created_at_sort ON notify (created_at, id);
CREATE INDEX IF NOT EXISTS notify_updated_at_sort ON notify (updated_at, id);
CREATE INDEX IF NOT EXISTS notify_name_sort ON notify (name, id);
CREATE INDEX IF NOT EXISTS notify_alarm_type_sort ON notify (alarm_type, id);
-- oilPrice
CREATE INDEX IF NOT EXISTS oil_price_keyword_trgm ON oil_price USING gin ((coalesce(region, '') || E'\x1f' || coalesce(fuel_grade, '')) gin_trgm_ops);
CREATE INDEX IF NOT EXISTS oil_price_region_trgm ON oil_price USING gin (region gin_trgm_ops);
CREATE INDEX IF NOT EXISTS oil_price_fuel_grade_trgm ON oil_price USING gin (fuel_grade gin_trgm_ops);
CREATE INDEX IF NOT EXISTS oil_price_created_at_sort ON oil_price (created_at, id);
CREATE INDEX IF NOT EXISTS oil_price_updated_at_sort ON oil_price (updated_at, id);
CREATE INDEX IF NOT EXISTS oil_price_region_sort ON oil_price (region, id);
CREATE INDEX IF NOT EXISTS oil_price_fuel_grade_sort ON oil_price (fuel_grade, id);
CREATE INDEX IF NOT EXISTS oil_price_price_sort ON oil_price (price, id);
CREATE INDEX IF NOT EXISTS oil_price_effective_date_sort ON oil_price (effective_date, id);
-- oilStation
CREATE INDEX IF NOT EXISTS oil_station_keyword_trgm ON oil_station USING gin ((coalesce(name, '') || E'\x1f' || coalesce(address, '') || E'\x1f' || coalesce(brand, '')) gin_trgm_ops);
CREATE INDEX IF NOT EXISTS oil_station_name_trgm ON oil_station USING gin (name gin_trgm_ops);
CREATE INDEX IF NOT EXISTS oil_station_address_trgm ON oil_station USING gin (address gin_trgm_ops);
CREATE INDEX IF NOT EXISTS oil_station_created_at_sort ON oil_station (created_at, id);
CREATE INDEX IF NOT EXISTS oil_station_updated_at_sort ON oil_station (updated_at, id);
CREATE INDEX IF NOT EXISTS oil_station_name_sort ON oil_station (name, id);
-- park
CREATE INDEX IF NOT EXISTS park_keyword_trgm ON park USING gin ((coalesce(name, '') || E'\x1f' || coalesce(address, '')) gin_trgm_ops);
CREATE INDEX IF NOT EXISTS park_name_trgm ON park USING gin (name gin_trgm_ops);
CREATE INDEX IF NOT EXISTS park_address_trgm ON park USING gin (address gin_trgm_ops);
CREATE INDEX IF NOT EXISTS park_created_at_sort ON park (created_at, id);
CREATE INDEX IF NOT EXISTS park_updated_at_sort ON park (updated_at, id);
CREATE INDEX IF NOT EXISTS park_name_sort ON park (name, id);
CREATE INDEX IF NOT EXISTS park_capacity_sort ON park (capacity, id);
-- policy
CREATE INDEX IF NOT EXISTS policy_name_trgm ON policy USING gin (name gin_trgm_ops);
CREATE INDEX IF NOT EXISTS policy_created_at_sort ON policy (created_at, id);
CREATE INDEX IF NOT EXISTS policy_updated_at_sort ON policy (updated_at, id);
CREATE INDEX IF NOT EXISTS policy_name_sort ON policy (name, id);
CREATE INDEX IF NOT EXISTS policy_alarm_type_sort ON policy (alarm_type, id);
-- schedule
CREATE INDEX IF NOT EXISTS schedule_route_trgm ON schedule USING gin (route gin_trgm_ops);
CREATE INDEX IF NOT EXISTS driver_name_trgm ON driver USING gin (name gin_trgm_ops);
CREATE INDEX IF NOT EXISTS vehicle_licence_trgm ON vehicle USING gin (licence gin_trgm_ops);
CREATE INDEX IF NOT EXISTS schedule_created_at_sort ON schedule (created_at, id);
CREATE INDEX IF NOT EXISTS schedule_updated_at_sort ON schedule (updated_at, id);
CREATE INDEX IF NOT EXISTS schedule_work_date_sort ON schedule (work_date, id);
CREATE INDEX IF NOT EXISTS schedule_shift_sort ON schedule (shift, id);
-- servicePeriod
CREATE INDEX IF NOT EXISTS service_period_invoice_no_trgm ON service_period USING gin (invoice_no gin_trgm_ops);
CREATE INDEX IF NOT EXISTS vehicle_licence_trgm ON vehicle USING gin (licence gin_trgm_ops);
CREATE INDEX IF NOT EXISTS service_period_created_at_sort ON service_period (created_at, id);
CREATE INDEX IF NOT EXISTS service_period_updated_at_sort ON service_period (updated_at, id);
CREATE INDEX IF NOT EXISTS service_period_period_start_sort ON service_period (period_start, id);
CREATE INDEX IF NOT EXISTS service_period_period_end_sort ON service_period (period_end, id);
CREATE INDEX IF NOT EXISTS service_period_amount_sort ON service_period (amount, id);
-- task
CREATE INDEX IF NOT EXISTS task_keyword_trgm ON task USING gin ((coalesce(name, '') || E'\x1f' || coalesce(origin, '') || E'\x1f' || coalesce(destination, '')) gin_trgm_ops);
CREATE INDEX IF NOT EXISTS task_name_trgm ON task USING gin (name gin_trgm_ops);
CREATE INDEX IF NOT EXISTS vehicle_licence_trgm ON vehicle USING gin (licence gin_trgm_ops);
CREATE INDEX IF NOT EXISTS task_created_at_sort ON task (created_at, id);
CREATE INDEX IF NOT EXISTS task_updated_at_sort ON task (updated_at, id);
CREATE INDEX IF NOT EXISTS task_name_sort ON task (name, id);
CREATE INDEX IF NOT EXISTS task_start_time_sort ON task (start_time, id);
CREATE INDEX IF NOT EXISTS task_end_time_sort ON task (end_time, id);
CREATE INDEX IF NOT EXISTS task_status_sort ON task (status, id);
-- terminal
CREATE INDEX IF NOT EXISTS terminal_keyword_trgm ON terminal USING gin ((coalesce(terminal_no, '') || E'\x1f' || coalesce(sim, '') || E'\x1f' || coalesce(manufacturer, '')) gin_trgm_ops);
CREATE INDEX IF NOT EXISTS terminal_terminal_no_trgm ON terminal USING gin (terminal_no gin_trgm_ops);
CREATE INDEX IF NOT EXISTS terminal_sim_trgm ON terminal USING gin (sim gin_trgm_ops);
CREATE INDEX IF NOT EXISTS terminal_manufacturer_trgm ON terminal USING gin (manufacturer gin_trgm_ops);
CREATE INDEX IF NOT EXISTS terminal_created_at_sort ON terminal (created_at, id);
CREATE INDEX IF NOT EXISTS terminal_updated_at_sort ON terminal (updated_at, id);
CREATE INDEX IF NOT EXISTS terminal_terminal_no_sort ON terminal (terminal_no, id);
CREATE INDEX IF NOT EXISTS terminal_sim_sort ON terminal (sim, id);
CREATE INDEX IF NOT EXISTS terminal_manufacturer_sort ON terminal (manufacturer, id);
CREATE INDEX IF NOT EXISTS terminal_production_date_sort ON terminal (production_date, id);
CREATE INDEX IF NOT EXISTS terminal_service_start_sort ON terminal (service_start, id);
CREATE INDEX IF NOT EXISTS terminal_service_end_sort ON terminal (service_end, id);
-- vehicle
CREATE INDEX IF NOT EXISTS vehicle_keyword_trgm ON vehicle USING gin ((coalesce(licence, '') || E'\x1f' || coalesce(vin, '') || E'\x1f' || coalesce(customer, '')) gin_trgm_ops);
CREATE INDEX IF NOT EXISTS vehicle_licence_trgm ON vehicle USING gin (licence gin_trgm_ops);
CREATE INDEX IF NOT EXISTS vehicle_vin_trgm ON vehicle USING gin (vin gin_trgm_ops);
CREATE INDEX IF NOT EXISTS vehicle_customer_trgm ON vehicle USING gin (customer gin_trgm_ops);
CREATE INDEX IF NOT EXISTS terminal_terminal_no_trgm ON terminal USING gin (terminal_no gin_trgm_ops);
CREATE INDEX IF NOT EXISTS vehicle_created_at_sort ON vehicle (created_at, id);
CREATE INDEX IF NOT EXISTS vehicle_updated_at_sort ON vehicle (updated_at, id);
CREATE INDEX IF NOT EXISTS vehicle_licence_sort ON vehicle (licence, id);
CREATE INDEX IF NOT EXISTS vehicle_vin_sort ON vehicle (vin, id);
CREATE INDEX IF NOT EXISTS vehicle_customer_sort ON vehicle (customer, id);
CREATE INDEX IF NOT EXISTS vehicle_service_start_sort ON vehicle (service_start, id);
CREATE INDEX IF NOT EXISTS vehicle_service_end_sort ON vehicle (service_end, id);
-- vehicleBrand
CREATE INDEX IF NOT EXISTS vehicle_brand_keyword_trgm ON vehicle_brand USING gin ((coalesce(name, '') || E'\x1f' || coalesce(manufacturer, '')) gin_trgm_ops);
CREATE INDEX IF NOT EXISTS vehicle_brand_name_trgm ON vehicle_brand USING gin (name gin_trgm_ops);
CREATE INDEX IF NOT EXISTS vehicle_brand_manufacturer_trgm ON vehicle_brand USING gin (manufacturer gin_trgm_ops);
CREATE INDEX IF NOT EXISTS vehicle_brand_created_at_sort ON vehicle_brand (created_at, id);
CREATE INDEX IF NOT EXISTS vehicle_brand_updated_at_sort ON vehicle_brand (updated_at, id);
CREATE INDEX IF NOT EXISTS vehicle_brand_name_sort ON vehicle_brand (name, id);
CREATE INDEX IF NOT EXISTS vehicle_brand_manufacturer_sort ON vehicle_brand (manufacturer, id);
CREATE INDEX IF NOT EXISTS vehicle_brand_country_sort ON vehicle_brand (country, id);
CREATE INDEX IF NOT EXISTS vehicle_brand_enabled_sort ON vehicle_brand (enabled, id);
-- vehicleModel
CREATE INDEX IF NOT EXISTS vehicle_model_keyword_trgm ON vehicle_model USING gin ((coalesce(model_name, '') || E'\x1f' || coalesce(manufacturer, '')) gin_trgm_ops);
CREATE INDEX IF NOT EXISTS vehicle_model_model_name_trgm ON vehicle_model USING gin (model_name gin_trgm_ops);
CREATE INDEX IF NOT EXISTS vehicle_model_manufacturer_trgm ON vehicle_model USING gin (manufacturer gin_trgm_ops);
CREATE INDEX IF NOT EXISTS vehicle_model_created_at_sort ON vehicle_model (created_at, id);
CREATE INDEX IF NOT EXISTS vehicle_model_updated_at_sort ON vehicle_model (updated_at, id);
CREATE INDEX IF NOT EXISTS vehicle_model_model_name_sort ON vehicle_model (model_name, id);
CREATE INDEX IF NOT EXISTS vehicle_model_manufacturer_sort ON vehicle_model (manufacturer, id);
