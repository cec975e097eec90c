DROP TABLE delivery_attempts;
DROP TABLE deliveries;
DROP TABLE webhook_endpoints;
