include $(sort $(wildcard $(BR2_EXTERNAL_VRANDOM_PATH)/package/*/*.mk))
